/** The smallest `limit` {@link splitMessage} accepts: room for a reopened fence and some text. */
export const MIN_SPLIT_LIMIT = 32;

/** An open code fence: its backticks, and the line that reopens it in the next part. */
interface Fence {
  marker: string;
  opening: string;
}

interface Line {
  start: number;
  /** Index of the line's `\n`, or the text's length for the last line. */
  end: number;
  before: Fence | undefined;
  after: Fence | undefined;
  isFence: boolean;
}

interface Cut {
  /** The part is `text.slice(0, at)`. */
  at: number;
  /** Where the rest starts. */
  next: number;
  after: Fence | undefined;
}

const FENCE_LINE = /^ {0,3}(`{3,})([^`]*)$/;
const FENCE_START = /^ {0,3}```/;

function nextFence(line: string, open: Fence | undefined, limit: number): Fence | undefined {
  const match = FENCE_LINE.exec(line);
  if (!match) return open;
  const marker = match[1] ?? '```';
  const info = (match[2] ?? '').trim();
  if (open) return marker.length >= open.marker.length && info === '' ? undefined : open;
  const opening = `${marker}${info}`;
  // A very long info string would eat the next part's room: reopen with the bare fence then.
  return { marker, opening: opening.length <= limit / 4 ? opening : marker };
}

/** The lines of `text` that start before `until`, with the fence open before and after each. */
function scanLines(text: string, initial: Fence | undefined, until: number, limit: number): Line[] {
  const lines: Line[] = [];
  let state = initial;
  let start = 0;
  while (start <= until && start <= text.length) {
    const newline = text.indexOf('\n', start);
    const end = newline === -1 ? text.length : newline;
    // Only a line that starts like a fence is read whole: long lines of prose are common.
    const maybeFence = FENCE_START.test(text.slice(start, start + 7));
    const content = maybeFence ? text.slice(start, end) : '';
    const after = maybeFence ? nextFence(content, state, limit) : state;
    lines.push({ start, end, before: state, after, isFence: maybeFence && FENCE_LINE.test(content) });
    state = after;
    if (newline === -1) break;
    start = newline + 1;
  }
  return lines;
}

const closingLength = (fence: Fence | undefined) => (fence ? fence.marker.length + 1 : 0);

/** Picks where to end the next part: paragraph, then line, then word boundary, then a hard cut. */
function chooseCut(text: string, budget: number, lines: Line[]): Cut {
  const fits = (at: number, after: Fence | undefined) => at > 0 && at + closingLength(after) <= budget;
  const paragraphs: Cut[] = [];
  const lineEnds: Cut[] = [];
  const words: Cut[] = [];
  for (const line of lines) {
    // A part never ends on an opening fence: that would leave an empty block behind.
    const opensHere = line.isFence && line.before === undefined && line.after !== undefined;
    if (line.end < text.length && !opensHere && fits(line.end, line.after)) {
      let next = line.end + 1;
      // Outside code, blank lines between parts are dropped; inside code they are content.
      if (line.after === undefined) while (text[next] === '\n') next++;
      const cut = { at: line.end, next, after: line.after };
      (text[line.end + 1] === '\n' ? paragraphs : lineEnds).push(cut);
    }
    if (line.isFence) continue;
    for (let index = Math.min(line.end - 1, budget); index > line.start; index--) {
      if ((text[index] === ' ' || text[index] === '\t') && fits(index, line.before)) {
        let next = index + 1;
        while (text[next] === ' ' || text[next] === '\t') next++;
        words.push({ at: index, next, after: line.before });
        break; // the last space of the line is enough: earlier ones make shorter parts
      }
    }
  }
  const half = budget / 2;
  const last = (cuts: Cut[]) =>
    cuts.reduce<Cut | undefined>((best, cut) => (!best || cut.at > best.at ? cut : best), undefined);
  const good = (cuts: Cut[]) => last(cuts.filter((cut) => cut.at >= half));
  const outside = (cuts: Cut[]) => cuts.filter((cut) => cut.after === undefined);
  // Whole code blocks first: a good cut outside code beats a later one inside it.
  const chosen =
    good(outside(paragraphs)) ??
    good(outside(lineEnds)) ??
    good(paragraphs) ??
    good(lineEnds) ??
    good(words) ??
    last([...paragraphs, ...lineEnds]) ??
    last(words);
  return chosen ?? hardCut(text, budget, lines);
}

/** No boundary fits: cut inside the line, never between the halves of a surrogate pair. */
function hardCut(text: string, budget: number, lines: Line[]): Cut {
  let at = Math.max(1, budget);
  let line =
    lines.find((candidate) => candidate.start <= at && at <= candidate.end) ?? lines[lines.length - 1];
  let fence = line?.before;
  if (fence && at + closingLength(fence) > budget) at = Math.max(1, budget - closingLength(fence));
  line = lines.find((candidate) => candidate.start <= at && at <= candidate.end) ?? line;
  fence = line?.before;
  const code = text.charCodeAt(at - 1);
  if (at > 1 && code >= 0xd800 && code <= 0xdbff) at--;
  return { at, next: at, after: fence };
}

/**
 * Splits a reply into Discord messages of at most `limit` characters (UTF-16 units, which is
 * never less than Discord's count). It cuts at a paragraph break, else a line break, else a
 * space, and only when none fits inside a word. A part that ends inside a code block closes the
 * fence, and the next part reopens it with the same language. Parts come back in order, without
 * the whitespace they were cut at; text that fits comes back whole (trimmed); empty text gives
 * no parts.
 *
 * @example
 * splitMessage('a'.repeat(1500) + '\n\n' + 'b'.repeat(1500)); // ['aaa…', 'bbb…']
 */
export function splitMessage(text: string, limit = 2000): string[] {
  if (!Number.isInteger(limit) || limit < MIN_SPLIT_LIMIT)
    throw new RangeError(
      `splitMessage: limit must be an integer of at least ${MIN_SPLIT_LIMIT}, got ${limit}`,
    );
  let rest = text.replace(/\r\n?/g, '\n').trim();
  const parts: string[] = [];
  let fence: Fence | undefined;
  while (rest !== '') {
    const prefix = fence ? `${fence.opening}\n` : '';
    if (prefix.length + rest.length <= limit) {
      parts.push(prefix + rest);
      break;
    }
    const budget = limit - prefix.length;
    const cut = chooseCut(rest, budget, scanLines(rest, fence, budget, limit));
    const piece = fence ? rest.slice(0, cut.at) : rest.slice(0, cut.at).trimEnd();
    const closing = cut.after ? `\n${cut.after.marker}` : '';
    if (piece.trim() !== '') parts.push(prefix + piece + closing);
    rest = rest.slice(cut.next);
    fence = cut.after;
    if (!fence) rest = rest.trimStart();
  }
  return parts;
}
