import { errorFactory } from '@macstats/core';
/** Codes of the errors this package throws (each is in the README's error table). */
export type SearchErrorCode = 'BRAVE_NO_API_KEY' | 'SEARXNG_BAD_URL';

/** Makes this package's errors: the compiler takes only the codes of {@link SearchErrorCode}. */
export const searchError = errorFactory<SearchErrorCode>();
