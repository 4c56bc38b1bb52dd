import { errorFactory } from '@macstats/core';
/** Codes of the errors this package throws (each is in the README's error table). */
export type BrowserErrorCode = 'BROWSER_BLOCKED' | 'BROWSER_NOT_FOUND' | 'INVALID_OPTION';

/** Makes this package's errors: the compiler takes only the codes of {@link BrowserErrorCode}. */
export const browserError = errorFactory<BrowserErrorCode>();
