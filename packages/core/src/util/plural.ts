/**
 * A count with its noun, singular for exactly one: `plural(1, 'tool')` is `1 tool`,
 * `plural(3, 'tool')` is `3 tools`, `plural(2, 'entry', 'entries')` is `2 entries`.
 */
export function plural(count: number, one: string, many = `${one}s`): string {
  return `${count} ${count === 1 ? one : many}`;
}
