/**
 * What a model shows rather than does: inline code, code in a programming language, and markup
 * introduced as an example ("the format is …", "for example:"). Structured readers see these
 * blanked out, so a model explaining a call format does not make a call.
 */

/** Words that introduce an example on the same line or the line before. */
const EXAMPLE_CUE =
  /\b(?:for example|for instance|e\.g\.|example|such as|like this|looks like|the format|this format|syntax|template|written as|you would write)\b/i;
/** Fence languages whose body may be a real call. */
const CALL_FENCES = new Set(['', 'json', 'xml', 'tool_call', 'tool_code']);
const FENCE_BLOCK = /(^|\n)([ \t]*)```[ \t]*([\w+-]*)[^\n]*\n[\s\S]*?(?:\n[ \t]*```|$)/g;
const INLINE_CODE = /`[^`\n]+`/g;

/** Spaces for every character of `match` but its newlines, so offsets survive. */
function blank(match: string): string {
  return match.replace(/[^\n]/g, ' ');
}

/** The text before `offset` on its line (at most 200 characters), or the line before when this one is empty so far. */
export function leadIn(text: string, offset: number): string {
  const window = text.slice(Math.max(0, offset - 400), offset);
  const lines = window.split('\n');
  const current = lines[lines.length - 1] ?? '';
  if (current.trim() !== '' || lines.length === 1) return current.slice(-200);
  return (lines[lines.length - 2] ?? '').slice(-200);
}

/** True when what precedes `offset` introduces an example. */
export function isIntroducedAsExample(text: string, offset: number): boolean {
  return EXAMPLE_CUE.test(leadIn(text, offset));
}

/**
 * The reply with inline code spans blanked, and fenced blocks blanked when their language is
 * not one a call comes in (`python`, `js`…) or when they are introduced as an example.
 */
export function blankExamples(text: string): string {
  if (!text.includes('`')) return text;
  let masked = text.replace(
    FENCE_BLOCK,
    (block, newline: string, _indent, language: string, offset: number) => {
      const start = offset + newline.length;
      const keep = CALL_FENCES.has(language.toLowerCase()) && !isIntroducedAsExample(text, start);
      return keep ? block : newline + blank(block.slice(newline.length));
    },
  );
  masked = masked.replace(INLINE_CODE, blank);
  return masked;
}
