/**
 * Removes what the parser must never read as a call: the model's hidden reasoning and anything
 * the model quotes back — tool output envelopes (ours and the usual chat-template tags),
 * markdown blockquotes, and "Observation:" / "Tool output:" paragraphs. A tool line inside
 * quoted tool output is data the model echoed, not a request.
 */

const THINKING = /<(think|thinking|reasoning)>[\s\S]*?(<\/\1>|$)/gi;
const QUOTED_TAGS =
  /<(tool_output|tool_result|tool_response|function_results|observation)\b[^>]*>[\s\S]*?(<\/\1\s*>|$)/gi;
const QUOTE_LABEL =
  /^\s*(?:[*_`]{0,2})(observation|tool output|tool result|tool response|output of [A-Z_]+|result of [A-Z_]+)(?:[*_`]{0,2})\s*:/i;

/** True for a line that starts a quoted paragraph: "Observation:", "Tool output:" and the like. */
export function isQuoteLabel(line: string): boolean {
  return QUOTE_LABEL.test(line);
}

/** Replaces a match with as many newlines as it spanned, so line numbers and order survive. */
function blankOut(match: string): string {
  return '\n'.repeat((match.match(/\n/g) ?? []).length);
}

const ORPHAN_CLOSE = /^[\s\S]*<\/(?:think|thinking|reasoning)>/i;

/**
 * Strips reasoning blocks (`<think>…</think>`, unclosed ones to the end) from a reply, and the
 * reasoning before a closing tag whose opening tag was in the prompt (DeepSeek-R1 and QwQ chat
 * templates open `<think>` themselves, so the reply starts with the reasoning and has only `</think>`).
 */
export function stripThinking(text: string): string {
  if (!text.includes('</') && !/<(think|thinking|reasoning)>/i.test(text)) return text;
  return text.replace(THINKING, '').replace(ORPHAN_CLOSE, '');
}

/**
 * Returns the reply with quoted regions blanked out: envelopes and their chat-template cousins
 * (to their closing tag, or to the end when the model never closed them), blockquote lines, and
 * paragraphs introduced by an observation/tool-output label.
 */
export function removeQuotedRegions(text: string): string {
  const stripped = stripThinking(text);
  const withoutTags = stripped.includes('<') ? stripped.replace(QUOTED_TAGS, blankOut) : stripped;
  const lines = withoutTags.split('\n');
  let inQuotedParagraph = false;
  for (let index = 0; index < lines.length; index++) {
    const line = lines[index] ?? '';
    if (line.trim() === '') {
      inQuotedParagraph = false;
      continue;
    }
    if (isQuoteLabel(line)) inQuotedParagraph = true;
    if (inQuotedParagraph || /^\s*>/.test(line)) lines[index] = '';
  }
  return lines.join('\n');
}
