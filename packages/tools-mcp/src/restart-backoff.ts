/**
 * Counts a server's consecutive failures (failed starts, exits, broken links) and says when
 * the next restart is allowed: at once after the first, then after `base`, 2 × `base`, 4 × …
 * up to `max`. A success resets it.
 */
export class RestartBackoff {
  #failures = 0;
  #lastFailureAt = 0;

  constructor(
    private readonly base: number,
    private readonly max: number,
    private readonly now: () => number,
  ) {}

  /** Consecutive failures since the last success. */
  get failures(): number {
    return this.#failures;
  }

  /** Milliseconds until the next attempt is allowed; 0 when it is allowed now. */
  get waitMs(): number {
    if (this.#failures <= 1) return 0;
    const delay = Math.min(this.max, this.base * 2 ** (this.#failures - 2));
    return Math.max(0, this.#lastFailureAt + delay - this.now());
  }

  recordFailure(): void {
    this.#failures += 1;
    this.#lastFailureAt = this.now();
  }

  recordSuccess(): void {
    this.#failures = 0;
  }
}
