/** One part of a long text: whole lines from `firstLine`, and where the next part starts. */
export interface TextPart {
  /** The lines of this part. */
  text: string;
  /** The first line of this part, counted from 1. */
  firstLine: number;
  /** The last line of this part. */
  lastLine: number;
  /** Lines of the whole text. */
  totalLines: number;
  /** The line the next part starts at, or undefined when this part reaches the end. */
  nextLine?: number;
}

/**
 * Cuts `text` into parts of whole lines of at most `maxChars` characters, and gives the part that
 * starts at line `fromLine` (1 is the first). A single line longer than `maxChars` is a part of its
 * own, cut at `maxChars` (the only case where a part ends inside a line). A `fromLine` past the
 * end gives an empty part.
 *
 * @example
 * readPart(longText, 1, 9000); // { text, firstLine: 1, lastLine: 212, totalLines: 679, nextLine: 213 }
 */
export function readPart(text: string, fromLine: number, maxChars: number): TextPart {
  const lines = text.split('\n');
  const totalLines = lines.length;
  const first = Math.max(1, Math.floor(fromLine));
  if (first > totalLines) return { text: '', firstLine: first, lastLine: totalLines, totalLines };
  let used = 0;
  let last = first - 1;
  while (last < totalLines) {
    const line = lines[last] ?? '';
    const cost = line.length + (last === first - 1 ? 0 : 1);
    if (used + cost > maxChars && last > first - 1) break;
    used += cost;
    last++;
  }
  let part = lines.slice(first - 1, last).join('\n');
  if (part.length > maxChars) part = part.slice(0, maxChars);
  return {
    text: part,
    firstLine: first,
    lastLine: last,
    totalLines,
    ...(last < totalLines ? { nextLine: last + 1 } : {}),
  };
}

/**
 * The line that ends a part of a longer text, telling the model how to ask for the next one:
 * `[Lines 1-212 of 679. Next part: SKILL: writing-skills from line 213]`. Empty when the part is
 * the whole text.
 */
export function partFooter(part: TextPart, command: string): string {
  if (part.firstLine === 1 && part.nextLine === undefined) return '';
  if (part.text === '' && part.firstLine > part.totalLines)
    return `[The text has ${part.totalLines} lines; there is no line ${part.firstLine}.]`;
  const range = `[Lines ${part.firstLine}-${part.lastLine} of ${part.totalLines}.`;
  return part.nextLine === undefined
    ? `${range} This is the end.]`
    : `${range} Next part: ${command} from line ${part.nextLine}]`;
}
