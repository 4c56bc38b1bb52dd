/** A call as the guards compare it: whitespace collapsed, case folded. */
export function callKey(tool: string, argument: string): string {
  return `${tool.toUpperCase()}: ${argument.trim().replace(/\s+/g, ' ').toLowerCase()}`;
}

/** The guard's verdict on the next call. */
export type GuardVerdict = 'run' | 'repeat' | 'cycle';

/**
 * Remembers the calls of one answer and spots the two loops small models fall into: asking for
 * a call that already ran (refused, and the model is told), and going round in circles —
 * A-B-A-B, or the same call three times running — which ends the tool phase.
 */
export class CallGuard {
  private readonly attempts: string[] = [];
  private readonly ran = new Set<string>();
  private failuresInARow = 0;

  /** Records an attempt and says whether to run it. */
  check(tool: string, argument: string): GuardVerdict {
    const key = callKey(tool, argument);
    this.attempts.push(key);
    const n = this.attempts.length;
    const at = (back: number) => this.attempts[n - 1 - back];
    if (n >= 4 && at(0) === at(2) && at(1) === at(3) && at(0) !== at(1)) return 'cycle';
    if (n >= 3 && at(0) === at(1) && at(1) === at(2)) return 'cycle';
    if (this.ran.has(key)) return 'repeat';
    this.ran.add(key);
    return 'run';
  }

  /** Records the outcome of a call; returns the number of failures in a row so far. */
  recordOutcome(failed: boolean): number {
    this.failuresInARow = failed ? this.failuresInARow + 1 : 0;
    return this.failuresInARow;
  }
}
