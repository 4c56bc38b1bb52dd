import { errorFactory } from '@macstats/core';
/** Codes of the errors this package throws (each is in the README's Errors section). */
export type AppRuntimeErrorCode =
  | 'MODEL_UNAVAILABLE'
  | 'MODEL_NOT_INSTALLED'
  | 'AGENT_NOT_FOUND'
  | 'NO_FIXED_AGENT';

/** Makes this package's errors: the compiler takes only the codes of {@link AppRuntimeErrorCode}. */
export const appRuntimeError = errorFactory<AppRuntimeErrorCode>();
