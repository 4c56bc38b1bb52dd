import { errorFactory } from '@macstats/core';
/** Codes of the errors this package throws (each is in the README's error table). */
export type RunCmdErrorCode = 'INVALID_OPTION';

/** Makes this package's errors: the compiler takes only the codes of {@link RunCmdErrorCode}. */
export const runCmdError = errorFactory<RunCmdErrorCode>();
