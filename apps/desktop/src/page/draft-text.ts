// Markdown a model puts before a line: quote marks, bullets, emphasis, headings, numbering.
const LINE_MARKUP = /^[\s>*_`#-]*(?:\d+[.)]\s*)?/;

/** A line that starts a tool call: `FETCH_URL: …`, ReAct's `Action:`, or a JSON call. */
function startsCall(line: string): boolean {
  const bare = line.replace(LINE_MARKUP, '');
  return (
    /^[A-Z][A-Z0-9_]{2,}\s*:/.test(bare) ||
    /^action(?:\s+input)?\s*:/i.test(bare) ||
    /^(?:<tool_call>|\{\s*"name")/.test(bare)
  );
}

/** The last line, still being written, could still turn into a call line. */
function mayStartCall(line: string): boolean {
  const bare = line.replace(LINE_MARKUP, '');
  return (
    bare !== '' &&
    (/^[A-Z][A-Z0-9_]*$/.test(bare) || /^a(?:c(?:t(?:i(?:on?)?)?)?)?$/i.test(bare) || /^[<{]/.test(bare))
  );
}

/**
 * The part of a streaming draft worth showing: a reasoning block (`<think>…</think>`, or one
 * still open at the end) is taken out, as the finished answer will not have it either, and so is
 * everything from a line that starts a tool call: the call runs and the draft starts again, so
 * showing it would only make it flash. A last line that may yet become one waits for its next
 * characters. A false alarm ("NOTE: …") shows in full once the answer is done.
 */
export function visibleDraft(draft: string): string {
  const text = draft.replace(/<think>[\s\S]*?(?:<\/think>|$)/gi, '').replace(/^\s+/, '');
  const lines = text.split('\n');
  const call = lines.findIndex(startsCall);
  if (call !== -1) return lines.slice(0, call).join('\n').trimEnd();
  if (mayStartCall(lines[lines.length - 1] ?? '')) return lines.slice(0, -1).join('\n').trimEnd();
  return text;
}
