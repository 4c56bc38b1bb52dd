/**
 * Offsets of a reply that a reader has consumed, so later readers skip them. Lookups are a binary
 * search, so a reply with thousands of calls stays fast.
 */
export class SpanSet {
  readonly #starts: number[] = [];
  readonly #ends: number[] = [];

  /** Adds `[start, end)`; spans may come in any order but never overlap. */
  add(start: number, end: number): void {
    let at = this.#starts.length;
    while (at > 0 && (this.#starts[at - 1] as number) > start) at--;
    this.#starts.splice(at, 0, start);
    this.#ends.splice(at, 0, end);
  }

  /** True when `offset` lies inside a span. */
  has(offset: number): boolean {
    let low = 0;
    let high = this.#starts.length - 1;
    while (low <= high) {
      const middle = (low + high) >> 1;
      if ((this.#starts[middle] as number) > offset) high = middle - 1;
      else if ((this.#ends[middle] as number) <= offset) low = middle + 1;
      else return true;
    }
    return false;
  }

  /** True when any offset of `[start, end)` lies inside a span. */
  overlaps(start: number, end: number): boolean {
    if (this.has(start)) return true;
    let low = 0;
    let high = this.#starts.length - 1;
    while (low <= high) {
      const middle = (low + high) >> 1;
      const spanStart = this.#starts[middle] as number;
      if (spanStart >= end) high = middle - 1;
      else if (spanStart < start) low = middle + 1;
      else return true;
    }
    return false;
  }
}

/**
 * A test of whether an offset lies inside any of `spans` (after its first offset: what starts a
 * span is not inside it), which may overlap and come in any order: merged once, then a binary
 * search per question.
 */
export function coveredBy(spans: ReadonlyArray<readonly [number, number]>): (offset: number) => boolean {
  const merged: Array<[number, number]> = [];
  for (const [start, end] of [...spans].sort((a, b) => a[0] - b[0])) {
    const last = merged[merged.length - 1];
    if (last && start <= last[1]) last[1] = Math.max(last[1], end);
    else merged.push([start, end]);
  }
  return (offset) => {
    let low = 0;
    let high = merged.length - 1;
    while (low <= high) {
      const middle = (low + high) >> 1;
      const [start, end] = merged[middle] as [number, number];
      if (start >= offset) high = middle - 1;
      else if (end <= offset) low = middle + 1;
      else return true;
    }
    return false;
  };
}
