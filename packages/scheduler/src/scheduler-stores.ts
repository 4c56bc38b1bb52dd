import type { LockAttempt } from './process-lock.js';
import type { RunRecord } from './run-history.js';
import type { SchedulesFile } from './schedule.js';
import type { SchedulerState } from './state-store.js';

/**
 * The lock that makes one scheduler the leader: only the leader fires. The default is a lock
 * file in the state folder (`ProcessLock`); `@macstats/store-postgres` gives a lease shared by
 * several hosts.
 */
export interface LeaderLock {
  /** Names the lock in messages: a file path, or the lease's name and database. */
  readonly description: string;
  /** Takes the lock if it is free (or its holder is gone). Never waits. */
  acquire(): Promise<LockAttempt>;
  /** Whether this instance still holds the lock; a lease is renewed by the check. */
  verify(): Promise<boolean>;
  /** Gives the lock up, if this instance still holds it. */
  release(): Promise<void>;
  /**
   * Registers a listener called when the lock is found lost in the background (a lease that
   * could not be renewed in time). Optional: without it, loss is found by `verify`.
   */
  onLost?(listener: () => void): void;
}

/**
 * Where the scheduler keeps what fired, the one-shots' done state and the runs under way.
 * `save` must be durable when it resolves: a run starts only after its record is saved.
 * A store shared by several hosts rejects a `save` from a leader that lost its lock with a
 * `MacstatsError` of code `LOCK_LOST` (the fencing check), and the scheduler then fires nothing.
 */
export interface ScheduleStateStore {
  /** Names the store in messages: a file path, or the database. */
  readonly description: string;
  /** The saved state; `recovered` says the saved state was unreadable and was set aside. */
  load(now: number): Promise<{ state: SchedulerState; recovered?: string }>;
  save(state: SchedulerState): Promise<void>;
  /**
   * Saves the state and appends run records in one step, so a crash between the two cannot
   * leave a run finished in the state but missing from the history. Optional: without it the
   * scheduler saves, then appends to its `history`.
   */
  commit?(state: SchedulerState, records: readonly RunRecord[]): Promise<void>;
}

/** Where run records go (`runs.jsonl` by default). Same `LOCK_LOST` rule as {@link ScheduleStateStore}. */
export interface RunHistoryStore {
  append(record: RunRecord): Promise<void>;
}

/**
 * Where the schedules come from and where the `SCHEDULER` tool and the dashboard change them:
 * `schedules.json` by default, a table when shared.
 */
export interface ScheduleSource {
  /** Names the source in messages: a file path, or the table. */
  readonly description: string;
  /** The schedules document as JSON text (`{"schedules": [...]}`); `undefined` when there is none yet. */
  read(): Promise<string | undefined>;
  /**
   * Changes the document without losing a concurrent edit; `change` may run more than once and
   * must work from the document it is given. A document left as it was is not written.
   * Throws `SCHEDULES_FILE_INVALID` when the stored document is not usable.
   */
  edit<T>(change: (document: SchedulesFile) => T | Promise<T>): Promise<T>;
}
