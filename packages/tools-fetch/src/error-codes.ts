import { errorFactory } from '@macstats/core';
/** Codes of the errors this package throws (each is in the README's error table). */
export type FetchErrorCode =
  | 'FETCH_BAD_ENCODING'
  | 'FETCH_BAD_REDIRECT'
  | 'FETCH_BAD_URL'
  | 'FETCH_BLOCKED'
  | 'FETCH_COMPRESSION_BOMB'
  | 'FETCH_REDIRECT_CONTAINED'
  | 'FETCH_TOO_MANY_REDIRECTS'
  | 'FETCH_UNSUPPORTED_ENCODING'
  | 'INVALID_OPTION';

/** Makes this package's errors: the compiler takes only the codes of {@link FetchErrorCode}. */
export const fetchError = errorFactory<FetchErrorCode>();
