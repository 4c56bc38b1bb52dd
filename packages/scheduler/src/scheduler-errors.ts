import { MacstatsError } from '@macstats/core';

/** Codes of the errors this package throws (each is in the README's error table). */
export type SchedulerErrorCode =
  | 'AGENT_FAILED'
  | 'AGENT_NOT_FOUND'
  | 'ALREADY_RUNNING'
  | 'INVALID_OPTION'
  | 'LOCK_LOST'
  | 'NOT_LEADER'
  | 'NO_AGENT'
  | 'SCHEDULER_NOT_STARTED'
  | 'SCHEDULER_STOPPED'
  | 'SCHEDULES_FILE_BUSY'
  | 'SCHEDULES_FILE_INVALID'
  | 'SCHEDULE_INVALID'
  | 'STATE_WRITE_FAILED'
  | 'TASK_TIMEOUT'
  | 'TOOL_FAILED'
  | 'UNKNOWN_SCHEDULE';

/**
 * The error a store throws for a write from a scheduler that no longer holds the lock (the
 * fencing check of `ScheduleStateStore` and `RunHistoryStore`): the scheduler then fires nothing.
 */
export function lockLostError(message: string): MacstatsError<'LOCK_LOST'> {
  return new MacstatsError('LOCK_LOST', message);
}

/** Whether a store refused a write because this scheduler no longer holds the lock. */
export function isLockLost(error: unknown): error is MacstatsError {
  return MacstatsError.isInstance(error) && error.code === 'LOCK_LOST';
}

/** Whether a schedules text (a file, an import) was not a usable schedules file. */
export function isSchedulesFileInvalid(error: unknown): error is MacstatsError {
  return MacstatsError.isInstance(error) && error.code === 'SCHEDULES_FILE_INVALID';
}
