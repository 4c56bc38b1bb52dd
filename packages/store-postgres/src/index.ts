export type {
  PostgresSchedulerStores,
  PostgresStore,
  PostgresStoreOptions,
  SchedulerStoresOptions,
} from './connect-postgres.js';
export { connectPostgres } from './connect-postgres.js';
export { STORE_POSTGRES_DEFAULTS } from './defaults.js';
export type { StorePostgresErrorCode } from './error-codes.js';
export { PostgresLeaderLease } from './leader-lease.js';
export { SCHEMA_VERSION } from './migrations.js';
export { createPostgresMemoryStore } from './postgres-memory-store.js';
export { createPostgresMessageArchive } from './postgres-message-archive.js';
export { createPostgresNoteBackend } from './postgres-note-backend.js';
export { PostgresRunHistory } from './postgres-run-history.js';
export { PostgresScheduleSource } from './postgres-schedule-source.js';
export { PostgresStateStore } from './postgres-state-store.js';
export {
  createPostgresTaskStore,
  type PostgresTaskStore,
  type PostgresTaskStoreOptions,
} from './postgres-task-store.js';
export { createPostgresTokenLedger } from './postgres-token-ledger.js';
