import { errorFactory } from '@macstats/core';
/** Codes of the errors this package throws (each is in the README's error table). */
export type TaskErrorCode = 'TASK_INVALID';

/** Makes this package's errors: the compiler takes only the codes of {@link TaskErrorCode}. */
export const taskError = errorFactory<TaskErrorCode>();
