/**
 * What a model shows rather than does: inline code, code in a programming language, and markup
 * introduced as an example ("the format is …", "for example:"). Structured readers see these
 * blanked out, so a model explaining a call format does not make a call.
 */
import { readPythonCalls } from './python-calls.js';
import { blankOut } from './quoted-regions.js';

/** Words that introduce an example on the same line, or on the line before when it ends with `:`. */
const EXAMPLE_CUE =
  /\b(?:for example|for instance|e\.g\.|an example|example:|such as|like this|like so|looks like|the format|this format|the syntax|syntax is|writes calls|written as|you would write)(?![\w.]\w)/i;
/** Fence languages whose body may be a real call. */
const CALL_FENCES = new Set(['', 'json', 'xml', 'tool_call', 'tool_code']);
/** Fence languages that are code: kept only when the body is nothing but calls. */
const CODE_FENCES = new Set(['python', 'py', 'python3']);
const FENCE_BLOCK = /(^|\n)([ \t]*)```[ \t]*([\w+-]*)[^\n]*\n([\s\S]*?)(?:\n[ \t]*```|$)/g;
const INLINE_CODE = /`[^`\n]+`/g;

/** No offset is inside a call: the default when calls were not looked for. */
const NOWHERE = (_offset: number) => false;

/**
 * True when what precedes `offset` introduces an example: a cue on the same line before it, or
 * on the line before (ending with `:`) when nothing comes before it on its own line.
 */
export function isIntroducedAsExample(text: string, offset: number): boolean {
  const lines = text.slice(Math.max(0, offset - 400), offset).split('\n');
  const current = lines[lines.length - 1] ?? '';
  if (current.trim() !== '' || lines.length === 1) return EXAMPLE_CUE.test(current.slice(-200));
  const previous = (lines[lines.length - 2] ?? '').trim();
  return previous.endsWith(':') && EXAMPLE_CUE.test(previous.slice(-200));
}

/** Inline code spans blanked, but for one whose opening backtick lies inside a call. */
function blankInlineCode(text: string, inCall: (offset: number) => boolean): string {
  let masked = '';
  let from = 0;
  INLINE_CODE.lastIndex = 0;
  for (let match = INLINE_CODE.exec(text); match; match = INLINE_CODE.exec(text)) {
    if (inCall(match.index)) {
      // A backtick in an argument's text pairs with nothing outside it.
      INLINE_CODE.lastIndex = match.index + 1;
      continue;
    }
    masked += text.slice(from, match.index) + blankOut(match[0]);
    from = match.index + match[0].length;
  }
  return masked + text.slice(from);
}

/**
 * The reply with inline code spans blanked, and fenced blocks blanked when their language is
 * not one a call comes in (`js`, `python` unless the block holds nothing but calls) or when they
 * are introduced as an example. `inCall` says whether an offset lies inside a call's own text
 * (see `findCallSpans`): a fence or backtick that opens there is a value's text, not markdown.
 */
export function blankExamples(text: string, inCall: (offset: number) => boolean = NOWHERE): string {
  if (!text.includes('`')) return text;
  const masked = text.replace(
    FENCE_BLOCK,
    (block, newline: string, _indent, language: string, body: string, offset: number) => {
      const start = offset + newline.length;
      if (inCall(start)) return block;
      const kind = language.toLowerCase();
      const callsOnly = CODE_FENCES.has(kind) && readPythonCalls(body.replace(/^\s*#.*$/gm, '')) !== null;
      const keep = (CALL_FENCES.has(kind) || callsOnly) && !isIntroducedAsExample(text, start);
      return keep ? block : newline + blankOut(block.slice(newline.length));
    },
  );
  return blankInlineCode(masked, inCall);
}
