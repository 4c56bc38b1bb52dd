import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Clock } from '../src/clock.js';
import type { RunRecord } from '../src/run-history.js';

/**
 * A clock that moves only when told. `advance` fires due timers in time order, and after each
 * one waits for `settle` (the scheduler's `whenIdle`), so real file I/O completes in between.
 */
export class FakeClock implements Clock {
  #now: number;
  #sequence = 0;
  readonly #timers = new Map<number, { at: number; callback: () => void }>();
  settle: () => Promise<void> = async () => {};

  constructor(start: number | string) {
    this.#now = typeof start === 'number' ? start : Date.parse(start);
  }

  now(): number {
    return this.#now;
  }

  setTimeout(callback: () => void, ms: number): unknown {
    this.#sequence += 1;
    this.#timers.set(this.#sequence, { at: this.#now + Math.max(0, ms), callback });
    return this.#sequence;
  }

  clearTimeout(handle: unknown): void {
    this.#timers.delete(handle as number);
  }

  /** Pending timers (for tests that check nothing polls). */
  get pendingTimers(): number {
    return this.#timers.size;
  }

  /** The earliest pending timer's time, if any. */
  get nextTimerAt(): number | undefined {
    const times = [...this.#timers.values()].map((timer) => timer.at);
    return times.length === 0 ? undefined : Math.min(...times);
  }

  /** Moves time to `target` (epoch ms or ISO), firing every timer due on the way. */
  async advanceTo(target: number | string): Promise<void> {
    const end = typeof target === 'number' ? target : Date.parse(target);
    await this.settle();
    while (true) {
      const due = [...this.#timers.entries()]
        .filter(([, timer]) => timer.at <= end)
        .sort((a, b) => a[1].at - b[1].at || a[0] - b[0])[0];
      if (due === undefined) break;
      const [handle, timer] = due;
      this.#timers.delete(handle);
      this.#now = Math.max(this.#now, timer.at);
      timer.callback();
      await this.settle();
    }
    this.#now = Math.max(this.#now, end);
    await this.settle();
  }

  advance(ms: number): Promise<void> {
    return this.advanceTo(this.#now + ms);
  }
}

/** A fresh temporary folder, removed by the returned `cleanup`. */
export async function temporaryFolder(): Promise<{ path: string; cleanup: () => Promise<void> }> {
  const path = await mkdtemp(join(tmpdir(), 'macstats-scheduler-'));
  return { path, cleanup: () => rm(path, { recursive: true, force: true }) };
}

/** Writes `{"schedules": entries}` to a file. */
export function writeSchedules(file: string, entries: unknown[]): Promise<void> {
  return writeFile(file, `${JSON.stringify({ schedules: entries }, null, 2)}\n`);
}

/** The records of a `runs.jsonl`. */
export async function readRuns(path: string): Promise<RunRecord[]> {
  const text = await readFile(path, 'utf8').catch(() => '');
  return text
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line) => JSON.parse(line) as RunRecord);
}

/** A promise with its resolve and reject exposed. */
export function deferred<T>(): {
  promise: Promise<T>;
  resolve: (value: T) => void;
  reject: (error: unknown) => void;
} {
  let resolve!: (value: T) => void;
  let reject!: (error: unknown) => void;
  const promise = new Promise<T>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  return { promise, resolve, reject };
}
