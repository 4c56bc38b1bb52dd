import { errorFactory } from '@macstats/core';
/** Codes of the errors this package throws (each is in the README's error table). */
export type StorePostgresErrorCode =
  | 'DATABASE_REFUSED'
  | 'DATABASE_UNREACHABLE'
  | 'LOCK_LOST'
  | 'NOTES_BUSY'
  | 'SCHEDULES_BUSY'
  | 'SCHEDULES_FILE_INVALID'
  | 'SCHEMA_NEWER'
  | 'TASK_BUSY'
  | 'TASK_LEASE_LOST';

/** Makes this package's errors: the compiler takes only the codes of {@link StorePostgresErrorCode}. */
export const storeError = errorFactory<StorePostgresErrorCode>();
