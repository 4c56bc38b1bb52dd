import type { RawCall } from './candidate.js';
import { readOneCall } from './python-calls.js';
import type { CallRecogniser, FoundCalls } from './recogniser.js';

/** A line that starts with a call or a list of calls: `get_weather(` or `[get_weather(`. */
const CALL_LINE = /(?<=^|\n)[ \t]*(\[[ \t]*)?([A-Za-z_][\w.-]*)[ \t]*\(/g;
/**
 * What may end a line of calls: a full stop or `;`, a `# comment`, a fence's closing marks; after
 * a list also `()`, which Gemma 1 writes as if to call it.
 */
const LINE_END = /(?:\(\))?[ \t]*[.;]?[ \t]*(?:#[^\n]*|```[ \t]*)?(?:\n|$)/y;
const SEPARATOR = /\s*[,;]?\s*/y;
const MAX_CALLS = 64;

/**
 * Reads calls one after the other from `at`: up to `]` in a list, else while `,` or `;` and another
 * call follow. `end` is where the run ends; `read` is how far whole calls were read, even when the
 * run is not one (`ok` false), so a caller never reads the same calls twice.
 */
function readSequence(
  text: string,
  at: number,
  inList: boolean,
): { calls: RawCall[]; end: number; ok: boolean } {
  const calls: RawCall[] = [];
  let index = at;
  while (calls.length < MAX_CALLS) {
    const read = readOneCall(text, index);
    if (!read) return { calls, end: index, ok: !inList && calls.length > 0 };
    calls.push(read.call);
    SEPARATOR.lastIndex = read.end;
    SEPARATOR.test(text);
    const next = SEPARATOR.lastIndex;
    if (inList && text[next] === ']') return { calls, end: next + 1, ok: true };
    if (!inList && !/[,;]/.test(text.slice(read.end, next))) return { calls, end: read.end, ok: true };
    index = next;
  }
  return { calls, end: index, ok: false };
}

/** Fenced blocks' bodies as [start, end) offsets; an unclosed fence ends at its first blank line. */
function fenceBodies(text: string): Array<[number, number]> {
  if (!text.includes('```')) return [];
  const bodies: Array<[number, number]> = [];
  const fence = /(?<=^|\n)[ \t]*```[^\n]*(?:\n|$)/g;
  for (let open = fence.exec(text); open; open = fence.exec(text)) {
    const start = open.index + open[0].length;
    const close = fence.exec(text);
    if (close) {
      bodies.push([start, close.index]);
      continue;
    }
    const blankLine = text.slice(start).search(/\n[ \t]*\n/);
    bodies.push([start, blankLine < 0 ? text.length : start + blankLine]);
    break;
  }
  return bodies;
}

/**
 * True when the fence body `span` starts in (if any) holds nothing but the span, blank lines and
 * `#` comments. `fences.next` moves forward only: spans come in order, so all checks cost one pass.
 */
function onlyCallsInFence(
  text: string,
  span: [number, number],
  fences: { bodies: Array<[number, number]>; next: number },
): boolean {
  while ((fences.bodies[fences.next]?.[1] ?? Number.POSITIVE_INFINITY) <= span[0]) fences.next++;
  const body = fences.bodies[fences.next];
  if (!body || body[0] > span[0]) return true;
  const rest = text.slice(body[0], span[0]) + text.slice(span[1], body[1]);
  return rest.split('\n').every((line) => /^\s*(?:#.*|```.*|return\s*)?$/.test(line));
}

/**
 * Python calls that start a line: a list (`[get_weather(city="Paris"), get_time(zone="CET")]`,
 * Llama 3.x's and BFCL's prompted format) or bare calls separated by commas (`math.hypot(x=4,
 * y=5)`). The line may end with a full stop, `;` or a `# comment`, and nothing else; a list may
 * span lines. A run counts only when one of its names is a tool offered, and, inside a fenced
 * block, only when the block holds nothing else: `print(x)` in prose and code that merely uses a
 * tool are not calls.
 */
function findPythonLines(text: string, knows: (name: string) => boolean): FoundCalls[] {
  const found: FoundCalls[] = [];
  let fences: { bodies: Array<[number, number]>; next: number } | undefined;
  CALL_LINE.lastIndex = 0;
  for (let head = CALL_LINE.exec(text); head; head = CALL_LINE.exec(text)) {
    if (!knows(head[2] as string)) continue;
    const inList = head[1] !== undefined;
    const callAt = inList ? head.index + head[0].indexOf('[') + 1 : head.index;
    const read = readSequence(text, callAt, inList);
    // Lines inside calls already read cannot start a run of their own: go on after them.
    CALL_LINE.lastIndex = Math.max(CALL_LINE.lastIndex, read.end);
    LINE_END.lastIndex = read.end;
    if (!read.ok || !LINE_END.test(text)) continue;
    const span: [number, number] = [head.index, read.end];
    fences ??= { bodies: fenceBodies(text), next: 0 };
    if (!onlyCallsInFence(text, span, fences)) continue;
    found.push({ start: span[0], end: span[1], calls: read.calls });
  }
  return found;
}

/** Python calls on lines of their own, for tools offered. */
export const PYTHON_LINE_RECOGNISER: CallRecogniser = {
  format: 'python',
  markers: ['('],
  find: findPythonLines,
};
