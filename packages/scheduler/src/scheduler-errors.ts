import { errorFactory, MacstatsError } from '@macstats/core';

/** Codes of the errors this package throws (each is in the README's error table). */
export type SchedulerErrorCode =
  | 'AGENT_FAILED'
  | 'AGENT_NOT_FOUND'
  | 'ALREADY_RUNNING'
  | 'DELIVERY_FAILED'
  | 'INVALID_OPTION'
  | 'LOCK_LOST'
  | 'LOCK_UNAVAILABLE'
  | 'NOT_LEADER'
  | 'NO_AGENT'
  | 'SCHEDULER_FAILED'
  | 'SCHEDULER_NOT_STARTED'
  | 'SCHEDULER_STOPPED'
  | 'SCHEDULES_FILE_BUSY'
  | 'SCHEDULES_FILE_INVALID'
  | 'SCHEDULES_INVALID'
  | 'SCHEDULES_UNREADABLE'
  | 'SCHEDULE_INVALID'
  | 'STATE_RECOVERED'
  | 'STATE_WRITE_FAILED'
  | 'TASK_TIMEOUT'
  | 'TOOL_FAILED'
  | 'UNKNOWN_SCHEDULE';

/** Makes this package's errors: the compiler takes only the codes of {@link SchedulerErrorCode}. */
export const schedulerError = errorFactory<SchedulerErrorCode>();

/**
 * The error a store throws for a write from a scheduler that no longer holds the lock (the
 * fencing check of `ScheduleStateStore` and `RunHistoryStore`): the scheduler then fires nothing.
 */
export function lockLostError(message: string): MacstatsError<SchedulerErrorCode> {
  return schedulerError('LOCK_LOST', message);
}

/** Whether a store refused a write because this scheduler no longer holds the lock. */
export function isLockLost(error: unknown): error is MacstatsError {
  return MacstatsError.isInstance(error) && error.code === 'LOCK_LOST';
}

/** Whether a schedules text (a file, an import) was not a usable schedules file. */
export function isSchedulesFileInvalid(error: unknown): error is MacstatsError {
  return MacstatsError.isInstance(error) && error.code === 'SCHEDULES_FILE_INVALID';
}
