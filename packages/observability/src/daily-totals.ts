import type { TokenBudgetStatus } from '@macstats/core';
import type { Counter } from 'prom-client';

/** Today's totals of a macstats app, for its dashboard: since local midnight, or since the process started. */
export interface TodayTotals {
  /** Local date these totals are for: `2026-11-25`. */
  day: string;
  answers: { ok: number; error: number; aborted: number };
  modelRequests: { ok: number; error: number };
  tokens: { input: number; output: number };
  toolCalls: number;
  toolFailures: number;
  containment: { refused: number; approved: number };
  scheduledRuns: { ok: number; failed: number };
  discord: { reconnects: number; rateLimited: number; http429: number };
  /** The daily token budgets (UTC days), when a limit is set (`DAILY_TOKENS_PER_AGENT`, `DAILY_TOKENS_PER_CHANNEL`). */
  tokenBudgets?: TokenBudgetStatus;
}

/** The counters today's totals are read from. */
export type DailyCounters = Record<
  | 'answers'
  | 'modelRequests'
  | 'tokens'
  | 'toolCalls'
  | 'toolFailures'
  | 'containment'
  | 'runs'
  | 'reconnects'
  | 'rateLimited'
  | 'http429',
  Counter
>;

type Values = Record<keyof DailyCounters, Array<{ labels: Record<string, string | number>; value: number }>>;

function localDay(date: Date): string {
  const pad = (value: number) => String(value).padStart(2, '0');
  return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}`;
}

/**
 * Today's totals from the counters: their values now less their values at local midnight (a
 * snapshot taken by a timer then). Before the first midnight the baseline is the start: zero.
 */
export class DailyTotals {
  readonly #counters: DailyCounters;
  readonly #now: () => Date;
  #day: string;
  #baseline: Values | undefined;
  #timer: ReturnType<typeof setTimeout> | undefined;

  constructor(counters: DailyCounters, now: () => Date) {
    this.#counters = counters;
    this.#now = now;
    this.#day = localDay(now());
    this.#arm();
  }

  async #values(): Promise<Values> {
    const entries = await Promise.all(
      Object.entries(this.#counters).map(
        async ([key, counter]) => [key, (await counter.get()).values] as const,
      ),
    );
    return Object.fromEntries(entries) as Values;
  }

  #arm(): void {
    const now = this.#now();
    const midnight = new Date(now.getFullYear(), now.getMonth(), now.getDate() + 1);
    this.#timer = setTimeout(() => void this.startDay(), Math.max(1000, midnight.getTime() - now.getTime()));
    this.#timer.unref();
  }

  /** Takes the baseline of a new day: what is counted from now on is today's. */
  async startDay(): Promise<void> {
    this.#baseline = await this.#values();
    this.#day = localDay(this.#now());
    if (this.#timer) {
      clearTimeout(this.#timer);
      this.#arm();
    }
  }

  async today(): Promise<TodayTotals> {
    // The machine slept through midnight: today starts now.
    if (localDay(this.#now()) !== this.#day) await this.startDay();
    const now = await this.#values();
    const since = (key: keyof DailyCounters, match: Record<string, string> = {}) => {
      const sum = (values: Values[keyof DailyCounters] | undefined) =>
        (values ?? [])
          .filter((entry) => Object.entries(match).every(([label, value]) => entry.labels[label] === value))
          .reduce((total, entry) => total + entry.value, 0);
      return sum(now[key]) - sum(this.#baseline?.[key]);
    };
    return {
      day: this.#day,
      answers: {
        ok: since('answers', { outcome: 'ok' }),
        error: since('answers', { outcome: 'error' }),
        aborted: since('answers', { outcome: 'aborted' }),
      },
      modelRequests: {
        ok: since('modelRequests', { outcome: 'ok' }),
        error: since('modelRequests', { outcome: 'error' }),
      },
      tokens: { input: since('tokens', { type: 'input' }), output: since('tokens', { type: 'output' }) },
      toolCalls: since('toolCalls'),
      toolFailures: since('toolFailures'),
      containment: {
        refused: since('containment', { decision: 'refused' }),
        approved: since('containment', { decision: 'approved' }),
      },
      scheduledRuns: {
        ok: since('runs', { outcome: 'ok' }),
        failed: since('runs', { outcome: 'error' }) + since('runs', { outcome: 'timeout' }),
      },
      discord: {
        reconnects: since('reconnects'),
        rateLimited: since('rateLimited'),
        http429: since('http429'),
      },
    };
  }

  close(): void {
    if (this.#timer) clearTimeout(this.#timer);
    this.#timer = undefined;
  }
}
