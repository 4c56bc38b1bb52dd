/** Codes of the errors this package throws (each is in the README's error table). */
export type TaskErrorCode = 'TASK_INVALID';
