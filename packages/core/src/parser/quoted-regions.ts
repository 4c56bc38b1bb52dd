/**
 * Removes what the parser must never read as a call: the model's hidden reasoning and anything
 * the model quotes back — tool output envelopes (ours and the usual chat-template tags),
 * markdown blockquotes, and "Observation:" / "Tool output:" paragraphs. A tool line inside
 * quoted tool output is data the model echoed, not a request.
 */

/** Reasoning blocks, each to its closing marker or, unclosed, to the end. */
const THINKING: readonly RegExp[] = [
  /<(think|thinking|reasoning|seed:think)>[\s\S]*?(<\/\1>|$)/gi,
  // Magistral
  /\[THINK\][\s\S]*?(\[\/THINK\]|$)/g,
  // Command R7B
  /<\|START_THINKING\|>[\s\S]*?(<\|END_THINKING\|>|$)/g,
  // Apertus
  /<\|inner_prefix\|>[\s\S]*?(<\|inner_suffix\|>|$)/g,
  // Gemma 4
  /<\|channel>[\s\S]*?(<channel\|>|$)/g,
];

/** gpt-oss harmony: the analysis channel, to the end of its message. */
const HARMONY_ANALYSIS = /<\|channel\|>\s*analysis\b[\s\S]*?(?=<\|end\|>|<\|start\|>|<\|channel\|>|$)/g;

/**
 * Harmony's analysis messages without what the reply addressed to a tool: a header that names a
 * recipient (`to=functions.NAME`, before or after `<|channel|>`) makes the message a call, which
 * gpt-oss may write on the analysis channel; its body is the call's arguments, not reasoning.
 */
function stripHarmonyAnalysis(text: string): string {
  if (!text.includes('<|channel|>')) return text;
  return text.replace(HARMONY_ANALYSIS, (message: string, offset: number) => {
    const bodyAt = message.indexOf('<|message|>');
    const header = bodyAt < 0 ? message : message.slice(0, bodyAt);
    const opened = Math.max(text.lastIndexOf('<|start|>', offset), text.lastIndexOf('|>', offset - 1));
    const before = text.slice(Math.max(0, opened, offset - 200), offset);
    return /\bto=/.test(header) || /\bto=/.test(before) ? message : '';
  });
}
/** Text that must be in a reply for any reasoning block (or a lone closing marker) to be in it. */
const THINKING_MARKERS = [
  '</',
  '<think',
  '<reasoning',
  '<seed:think',
  'THINK',
  '<|inner_',
  '<|channel',
  'channel|>',
];
const QUOTED_TAGS =
  /<(tool_output|tool_result|tool_response|function_results|observation)\b[^>]*>[\s\S]*?(<\/\1\s*>|$)|<\|tool_response>[\s\S]*?(<tool_response\|>|$)|<\|START_TOOL_RESULT\|>[\s\S]*?(<\|END_TOOL_RESULT\|>|$)|<｜tool▁outputs?▁begin｜>[\s\S]*?(<｜tool▁outputs?▁end｜>|$)/gi;
const QUOTE_LABEL =
  /^\s*(?:[*_`]{0,2})(observation|tool output|tool result|tool response|output of [A-Z_]+|result of [A-Z_]+)(?:[*_`]{0,2})\s*:/i;

/** True for a line that starts a quoted paragraph: "Observation:", "Tool output:" and the like. */
export function isQuoteLabel(line: string): boolean {
  return QUOTE_LABEL.test(line);
}

/** No offset is inside a call: the default when calls were not looked for. */
const NOWHERE = (_offset: number) => false;

/** Spaces for every character of `text` but its newlines, so offsets, line numbers and order survive. */
export function blankOut(text: string): string {
  let blanked = '';
  let from = 0;
  for (let at = text.indexOf('\n'); at >= 0; at = text.indexOf('\n', from)) {
    blanked += `${' '.repeat(at - from)}\n`;
    from = at + 1;
  }
  return blanked + ' '.repeat(text.length - from);
}

/** Everything up to a lone closing marker: the template opened the reasoning in the prompt. */
const ORPHAN_CLOSE =
  /^[\s\S]*(?:<\/(?:think|thinking|reasoning|seed:think)>|\[\/THINK\]|<\|END_THINKING\|>|<\|inner_suffix\|>|<channel\|>)/i;

/**
 * Strips reasoning from a reply: `<think>` (and `<thinking>`, `<reasoning>`, Seed's
 * `<seed:think>`), Magistral's `[THINK]`, Command R7B's `<|START_THINKING|>`, Apertus'
 * `<|inner_prefix|>`, Gemma 4's `<|channel>` and harmony's analysis channel (but for a message
 * its header addresses to a tool) — unclosed ones to the end — and the reasoning before a closing marker whose opening one was in the prompt
 * (DeepSeek-R1, QwQ and Command R7B templates open it themselves, so the reply starts with the
 * reasoning and has only the closing marker).
 */
export function stripThinking(text: string): string {
  if (!THINKING_MARKERS.some((marker) => text.includes(marker))) return text;
  // The agent asks again for the reply it just asked about (parse, answer text, emptiness).
  if (text === lastThought.text) return lastThought.visible;
  let visible = text;
  for (const pattern of THINKING) visible = visible.replace(pattern, '');
  visible = stripHarmonyAnalysis(visible).replace(ORPHAN_CLOSE, '');
  lastThought = { text, visible };
  return visible;
}

let lastThought = { text: '', visible: '' };

/**
 * Returns the reply with quoted regions blanked out (spaces, offset for offset): envelopes and
 * their chat-template cousins (to their closing tag, or to the end when the model never closed
 * them), blockquote lines, and paragraphs introduced by an observation/tool-output label.
 * `inCall` says whether an offset lies inside a call's own text (see `findCallSpans`): a line or
 * tag that starts there is an argument's text, not a quote.
 */
export function removeQuotedRegions(text: string, inCall: (offset: number) => boolean = NOWHERE): string {
  return blankQuotedRegions(stripThinking(text), inCall);
}

/** {@link removeQuotedRegions} for a reply already without its reasoning (see `stripThinking`). */
export function blankQuotedRegions(stripped: string, inCall: (offset: number) => boolean = NOWHERE): string {
  const withoutTags = stripped.includes('<')
    ? stripped.replace(QUOTED_TAGS, (match: string, _1, _2, _3, _4, _5, offset: number) =>
        inCall(offset) ? match : blankOut(match),
      )
    : stripped;
  // Line by line, and a new text only when a line is blanked: most replies quote nothing.
  let out = '';
  let copied = 0;
  let inQuotedParagraph = false;
  for (let lineStart = 0; lineStart <= withoutTags.length; ) {
    const newline = withoutTags.indexOf('\n', lineStart);
    const lineEnd = newline === -1 ? withoutTags.length : newline;
    const line = withoutTags.slice(lineStart, lineEnd);
    const next = lineEnd + 1;
    if (line.trim() === '') {
      inQuotedParagraph = false;
      lineStart = next;
      continue;
    }
    // A line of a call's own text (an argument's) starts no quote, though it may sit in one.
    if (isQuoteLabel(line) && !inCall(lineStart + line.search(/\S/))) inQuotedParagraph = true;
    // `>>>NAME` alone on a line is Functionary's call header, not a blockquote.
    const blockquote =
      /^\s*>/.test(line) && !/^>>>[A-Za-z_][\w.-]*\s*$/.test(line) && !inCall(lineStart + line.search(/\S/));
    if (inQuotedParagraph || blockquote) {
      out += withoutTags.slice(copied, lineStart) + ' '.repeat(line.length);
      copied = lineEnd;
    }
    lineStart = next;
  }
  return copied === 0 ? withoutTags : out + withoutTags.slice(copied);
}
