/**
 * The lines removed (`- `) and added (`+ `) between two texts, in order, by a longest common
 * subsequence of lines: what a person reads to accept a changed `SKILL.md`. At most `limit`
 * lines, then one saying how many more changed.
 *
 * @example
 * lineDiff('a\nb', 'a\nc'); // ['- b', '+ c']
 */
export function lineDiff(before: string, after: string, limit = 40): string[] {
  const a = before.split('\n');
  const b = after.split('\n');
  // Common lines from each position to the ends (a table of (a+1)×(b+1) lengths).
  const width = b.length + 1;
  const common = new Uint32Array((a.length + 1) * width);
  for (let i = a.length - 1; i >= 0; i--)
    for (let j = b.length - 1; j >= 0; j--)
      common[i * width + j] =
        a[i] === b[j]
          ? (common[(i + 1) * width + j + 1] ?? 0) + 1
          : Math.max(common[(i + 1) * width + j] ?? 0, common[i * width + j + 1] ?? 0);
  const lines: string[] = [];
  let i = 0;
  let j = 0;
  while (i < a.length || j < b.length) {
    if (i < a.length && j < b.length && a[i] === b[j]) {
      i++;
      j++;
    } else if (
      j < b.length &&
      (i === a.length || (common[i * width + j + 1] ?? 0) > (common[(i + 1) * width + j] ?? 0))
    )
      lines.push(`+ ${b[j++]}`);
    else lines.push(`- ${a[i++]}`);
  }
  return lines.length > limit
    ? [...lines.slice(0, limit), `… and ${lines.length - limit} more changed lines`]
    : lines;
}
