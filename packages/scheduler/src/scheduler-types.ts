import type { Logger, MacstatsError } from '@macstats/core';
import type { Clock } from './clock.js';
import type { LockHolder } from './process-lock.js';
import type { RunOutcome, RunRecord } from './run-history.js';
import type { Schedule } from './schedule.js';
import type { LeaderLock, RunHistoryStore, ScheduleSource, ScheduleStateStore } from './scheduler-stores.js';

/**
 * Runs a schedule's task. Resolves with the text to deliver; rejects when the task failed. `run`
 * says which run it is: `due`, the time it was due (the same when a restart runs a missed run
 * again), so work it starts can be made idempotent per run.
 */
export type ExecuteTask = (schedule: Schedule, signal: AbortSignal, run?: ScheduledRun) => Promise<string>;

/** Which run of a schedule an {@link ExecuteTask} call is. */
export interface ScheduledRun {
  /** When the run was due; a manual run's is when it was asked for. */
  due: Date;
  /** Started by `runNow` rather than by its time. */
  manual: boolean;
}

/** What a finished run produced, as handed to `onDeliver`. */
export interface RunResult {
  /** The task's text, or one sentence saying why it failed or timed out. */
  text: string;
  isError: boolean;
  outcome: Extract<RunOutcome, 'ok' | 'error' | 'timeout'>;
  due: Date;
  startedAt: Date;
  durationMs: number;
  /** Set when the run was started by `runNow` rather than by its time (`due` is then its start). */
  manual?: true;
  /**
   * This run's delivery id: the same on every host and after every restart, 20 characters. A
   * result delivered again (found pending at start or by a new leader) carries the same id, so
   * a Discord post made with it as `nonce` and `enforce_nonce` is not made twice.
   */
  deliveryId: string;
}

/** Options of {@link Scheduler.runNow}. */
export interface RunNowOptions {
  /** Called once the run has started (after the checks passed), before the task finishes. */
  onStart?: ((run: { id: string; startedAt: Date }) => void) | undefined;
}

/** What the scheduler reports as it works; for dashboards and logs. */
export type SchedulerEvent =
  | { type: 'run-start'; id: string; due: Date; startedAt: Date; manual?: true }
  | { type: 'run-end'; id: string; record: RunRecord }
  | { type: 'runs-missed'; id: string; record: RunRecord }
  | { type: 'run-skipped'; id: string; record: RunRecord }
  | { type: 'schedules-reloaded'; schedules: number; errors: string[]; keptPrevious: boolean }
  | { type: 'lock-waiting'; holder: LockHolder | undefined }
  | { type: 'lock-acquired' }
  | { type: 'lock-lost' }
  | { type: 'error'; error: MacstatsError };

/** Options of {@link createScheduler}. Defaults are in `SCHEDULER_DEFAULTS`. */
export interface SchedulerOptions {
  /**
   * Path of `schedules.json`. A missing file means no schedules (it is picked up once created).
   * Required unless `source` is given.
   */
  file?: string | undefined;
  /** Folder for `scheduler-state.json`, `runs.jsonl` and `scheduler.lock`. Default: the file's folder. */
  stateDir?: string | undefined;
  /** Where the schedules come from. Default: `file`. `@macstats/store-postgres` gives a shared table. */
  source?: ScheduleSource | undefined;
  /** Who leads. Default: the lock file `scheduler.lock` in `stateDir`. */
  lock?: LeaderLock | undefined;
  /** What fired and what runs. Default: `scheduler-state.json` in `stateDir`. */
  stateStore?: ScheduleStateStore | undefined;
  /** Run history. Default: `runs.jsonl` in `stateDir`. */
  history?: RunHistoryStore | undefined;
  /** Runs a task; see `createTaskExecutor` for the usual one. Gets a signal that aborts on timeout and `stop()`. */
  execute: ExecuteTask;
  /**
   * Receives each finished run's result (not aborted ones). The Discord bot posts it to
   * `reply_to_channel_id`. The result is kept as pending delivery in the scheduler's state (in
   * the write that records the run) until this resolves; when it throws or resolves `false`, it
   * stays pending and is delivered again, with the same `deliveryId`, when a scheduler next starts
   * or becomes the leader. So a result is delivered at least once; make it at most once with the id.
   */
  onDeliver?: ((schedule: Schedule, result: RunResult) => unknown) | undefined;
  /** Every event: runs starting and ending, missed and skipped runs, reloads, the lock, errors. */
  onEvent?: ((event: SchedulerEvent) => void) | undefined;
  /** Errors only (bad file, state write failed, delivery threw, lock lost). */
  onError?: ((error: MacstatsError) => void) | undefined;
  /** Where the scheduler logs. Default: `silentLogger`. */
  logger?: Logger | undefined;
  /** Time source and timers. Default: the system clock. */
  clock?: Clock | undefined;
  /** IANA zone for entries without `timezone`. Default: the system's local zone. */
  timezone?: string | undefined;
  /** Default 600 000 (10 min). */
  taskTimeoutMs?: number | undefined;
  /** A missed one-shot runs on start if at most this late. Default 3 600 000 (1 h); 0 never runs it late. */
  missedOneShotGraceMs?: number | undefined;
  /** A cron run reached at most this late still runs. Default 60 000 (1 min). */
  cronGraceMs?: number | undefined;
  /** Cron runs missed beyond the grace: `skip` (default) logs them; `run-once` runs the latest once. */
  missedCron?: 'skip' | 'run-once' | undefined;
  /** Periodic check of the file besides the watcher. Default 5 000. */
  reloadIntervalMs?: number | undefined;
  /** Longest timer sleep before re-reading the clock. Default 60 000. */
  maxSleepMs?: number | undefined;
  /** Retry period while another process holds the lock. Default 30 000. */
  lockRetryMs?: number | undefined;
  /** Use `fs.watch` on the file's folder. Default true. */
  watch?: boolean | undefined;
  /** Rotate `runs.jsonl` past this size. Default 5 MiB. */
  maxHistoryBytes?: number | undefined;
}

/** One schedule as {@link Scheduler.list} shows it. */
export interface ScheduleStatus {
  schedule: Schedule;
  /** The zone its times are computed in. */
  timezone: string;
  /** Next time it fires; `undefined` for a one-shot that is done or a cron that has no more dates. */
  nextRun?: Date;
  /** A run is going, or has finished and its state and history line are still being written. */
  running: boolean;
  /** A one-shot that ran or was missed. */
  done: boolean;
  lastRun?: { due: Date; startedAt: Date; durationMs: number; outcome: string; manual?: true };
}

/** A running scheduler. See {@link createScheduler}. */
export interface Scheduler {
  /** Takes the lock (or waits for it), loads state and file, and starts the timer and watcher. */
  start(): Promise<void>;
  /** Stops timers and watcher, aborts running tasks and waits for them, releases the lock. */
  stop(): Promise<void>;
  /**
   * The first step of a graceful stop: from now on no run starts (no timed run, no `runNow`), and
   * the promise resolves once every run in progress has finished and been recorded and delivered,
   * or as soon as `signal` aborts (the grace is over), whichever comes first. Never rejects. Call
   * `stop()` afterwards: it aborts what still runs and releases the lock.
   *
   * @example
   * await scheduler.drain({ signal: AbortSignal.timeout(20_000) });
   * await scheduler.stop();
   */
  drain(options?: { signal?: AbortSignal }): Promise<void>;
  /**
   * Resolves once queued work is done: reloads, due runs being started, and the bookkeeping and
   * delivery of runs whose task has finished. Does not wait for tasks still running.
   */
  whenIdle(): Promise<void>;
  /** Re-reads the schedules file now; resolves when the new schedules are in effect. */
  reload(): Promise<void>;
  /** The current schedules with their next run and last run. */
  list(): ScheduleStatus[];
  /** Problems found in the file by the last reload, one sentence each. */
  errors(): string[];
  /** The next `count` fire times of every schedule (done one-shots have none). */
  dryRun(count: number): Array<{ id: string; timezone: string; times: Date[] }>;
  /**
   * Runs one schedule now, as a test, through the same path as a timed run (task timeout, abort
   * on `stop()`, `onDeliver`, run history and events, all marked `manual`), without changing
   * when it next fires: a cron keeps its next time and a pending one-shot stays pending.
   * Resolves with the result once the run is recorded and delivered; a failed or timed-out task
   * resolves too, with `isError`. Rejects with a `MacstatsError` before starting when this
   * process is not the leader (`NOT_LEADER`), the id is unknown (`UNKNOWN_SCHEDULE`) or the
   * schedule is running (`ALREADY_RUNNING`), and with `SCHEDULER_STOPPED` when `stop()` aborts it.
   */
  runNow(id: string, options?: RunNowOptions): Promise<RunResult>;
  /** True while this scheduler holds the lock and fires schedules. */
  readonly isLeader: boolean;
}
