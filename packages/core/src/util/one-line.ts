/**
 * Text on one line (runs of whitespace become one space), cut to `limit` characters with `…`:
 * for an error sentence, a status line or a prompt.
 */
export function oneLine(text: string, limit = 200): string {
  const line = text.replace(/\s+/g, ' ').trim();
  return line.length > limit ? `${line.slice(0, limit - 1)}…` : line;
}
