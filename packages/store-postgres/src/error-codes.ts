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
