import type { Logger } from '@macstats/core';
import type { Clock } from './clock.js';
import type { SchedulerSettings } from './defaults.js';
import type { ActiveRun } from './run-task.js';
import type { Schedule } from './schedule.js';
import type { SchedulerErrorCode } from './scheduler-errors.js';
import type { LeaderLock, RunHistoryStore, ScheduleStateStore } from './scheduler-stores.js';
import type { RunResult, SchedulerEvent } from './scheduler-types.js';

/** What `SchedulerCore` needs from its owner. */
export interface SchedulerCoreOptions {
  settings: SchedulerSettings;
  clock: Clock;
  logger: Logger;
  lock: LeaderLock;
  store: ScheduleStateStore;
  history: RunHistoryStore;
  emit: (event: SchedulerEvent) => void;
  fail: (code: SchedulerErrorCode, message: string, cause?: unknown) => void;
  schedules: () => Schedule[];
  zoneOf: (schedule: Schedule) => string;
  signatureOf: (schedule: Schedule) => string;
  startRun: (schedule: Schedule, due: number, manual: boolean) => ActiveRun;
  /** Hands a result to `onDeliver`; resolves true when it was accepted (it is then no longer pending). */
  deliver: (schedule: Schedule, result: RunResult) => Promise<boolean>;
  onLost: () => void;
}
