import { errorFactory } from '@macstats/core';
/** Codes of the errors this package throws (each is in the README's error table). */
export type ObservabilityErrorCode = 'METRICS_LISTEN_FAILED';

/** Makes this package's errors: the compiler takes only the codes of {@link ObservabilityErrorCode}. */
export const observabilityError = errorFactory<ObservabilityErrorCode>();
