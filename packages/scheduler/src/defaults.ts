/** Every default of the scheduler, in one place. Options name the same keys. */
export const SCHEDULER_DEFAULTS = {
  /** A task still running after this long is aborted: 10 minutes. */
  taskTimeoutMs: 600_000,
  /** A one-shot `at` missed (process down, machine asleep) still runs if at most this late: 1 hour. */
  missedOneShotGraceMs: 3_600_000,
  /** A cron run reached at most this late still runs; later ones count as missed: 1 minute. */
  cronGraceMs: 60_000,
  /** What happens to cron runs missed beyond the grace: `skip` logs them and runs none. */
  missedCron: 'skip',
  /** How often the schedules file is checked for changes besides the file watcher: 5 s. */
  reloadIntervalMs: 5_000,
  /** The longest the timer sleeps before looking at the clock again (survives a sleeping laptop): 1 min. */
  maxSleepMs: 60_000,
  /** How often a scheduler that found the lock held tries again: 30 s. */
  lockRetryMs: 30_000,
  /** Watch the schedules file's folder for changes (the periodic check runs regardless). */
  watch: true,
  /** `runs.jsonl` is rotated to `runs.1.jsonl` past this size: 5 MiB. */
  maxHistoryBytes: 5 * 1024 * 1024,
  /** Missed cron runs counted one by one before the count says "at least": 10 000. */
  missedCountLimit: 10_000,
} as const;

/** File names inside the state directory. */
export const STATE_FILES = {
  state: 'scheduler-state.json',
  history: 'runs.jsonl',
  lock: 'scheduler.lock',
} as const;

/** The scheduler's settings once options and defaults are merged. */
export interface SchedulerSettings {
  taskTimeoutMs: number;
  missedOneShotGraceMs: number;
  cronGraceMs: number;
  missedCron: 'skip' | 'run-once';
  reloadIntervalMs: number;
  maxSleepMs: number;
  lockRetryMs: number;
  watch: boolean;
  maxHistoryBytes: number;
  missedCountLimit: number;
}

/** Merges options over {@link SCHEDULER_DEFAULTS}; `undefined` options take the default. */
export function resolveSettings(
  options: {
    [K in keyof SchedulerSettings]?: SchedulerSettings[K] | undefined;
  },
): SchedulerSettings {
  const settings: SchedulerSettings = { ...SCHEDULER_DEFAULTS };
  for (const key of Object.keys(SCHEDULER_DEFAULTS) as Array<keyof SchedulerSettings>) {
    const value = options[key];
    if (value !== undefined) (settings as unknown as Record<string, unknown>)[key] = value;
  }
  return settings;
}
