export type { Clock } from './clock.js';
export { systemClock } from './clock.js';
export { SCHEDULER_DEFAULTS, STATE_FILES } from './defaults.js';
export { editSchedulesFile, readSchedulesDocument } from './edit-schedules-file.js';
export { formatDelivery, formatRunTimes } from './format.js';
export type { NextRunTimesOptions } from './next-run-times.js';
export { nextRunTimes } from './next-run-times.js';
export type { ParsedSchedules } from './parse-schedules.js';
export { parseSchedules } from './parse-schedules.js';
export type { SchedulePreview } from './preview-schedules.js';
export { previewSchedules } from './preview-schedules.js';
export type { LockAttempt, LockHolder } from './process-lock.js';
export type { RunOutcome, RunRecord } from './run-history.js';
export { readRunHistory } from './run-history.js';
export type { Schedule, ScheduleLabels, SchedulesFile } from './schedule.js';
export { SCHEDULER_PARAMETERS } from './schedule-command.js';
export { createFileScheduleSource } from './schedule-source.js';
export type { ScheduleToolsOptions } from './schedule-tools.js';
export { createScheduleTools, SCHEDULE_TOOLS_DEFAULTS } from './schedule-tools.js';
export { createScheduler } from './scheduler.js';
export {
  isLockLost,
  isSchedulesFileInvalid,
  lockLostError,
  type SchedulerErrorCode,
} from './scheduler-errors.js';
export type {
  LeaderLock,
  RunHistoryStore,
  ScheduleSource,
  ScheduleStateStore,
} from './scheduler-stores.js';
export type {
  ExecuteTask,
  RunNowOptions,
  RunResult,
  ScheduledRun,
  Scheduler,
  SchedulerEvent,
  SchedulerOptions,
  ScheduleStatus,
} from './scheduler-types.js';
export type { SchedulerState, ScheduleState } from './state-store.js';
export { emptyState } from './state-store.js';
export type { TaskExecutorOptions } from './task-executor.js';
export { createTaskExecutor, DEFAULT_DIRECT_TOOLS } from './task-executor.js';
