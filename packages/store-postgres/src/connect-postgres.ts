import {
  type Logger,
  type MemoryStore,
  type MessageArchive,
  silentLogger,
  type TokenLedger,
} from '@macstats/core';
import {
  createNoteStore,
  type NoteBackend,
  type NoteRuleOptions,
  type NoteStore,
} from '@macstats/tools-memory';
import postgres, { type Sql } from 'postgres';
import { STORE_POSTGRES_DEFAULTS } from './defaults.js';
import { PostgresLeaderLease } from './leader-lease.js';
import { migrate } from './migrations.js';
import { describeConnectError, describeDatabase } from './postgres-errors.js';
import { createPostgresMemoryStore } from './postgres-memory-store.js';
import { createPostgresMessageArchive } from './postgres-message-archive.js';
import { createPostgresNoteBackend } from './postgres-note-backend.js';
import { PostgresRunHistory } from './postgres-run-history.js';
import { PostgresScheduleSource } from './postgres-schedule-source.js';
import { PostgresStateStore } from './postgres-state-store.js';
import {
  createPostgresTaskStore,
  type PostgresTaskStore,
  type PostgresTaskStoreOptions,
} from './postgres-task-store.js';
import { createPostgresTokenLedger } from './postgres-token-ledger.js';

/** Options of {@link connectPostgres}. Defaults are in `STORE_POSTGRES_DEFAULTS`. */
export interface PostgresStoreOptions {
  /** `postgres://user:password@host:5432/database` (the apps read it from `DATABASE_URL`). */
  url: string;
  /** Where migrations and lease changes are logged. Default: silent. */
  logger?: Logger | undefined;
  /** Connections in this process's pool. Default 10. */
  maxConnections?: number | undefined;
  /** Giving up on reaching the server, in milliseconds. Default 10 000. */
  connectTimeoutMs?: number | undefined;
  /**
   * The server ends a session of this process that sits inside a transaction this long (a host
   * paused mid-write), so the row locks it held do not stall the other hosts. Keep it at most
   * the lease. Default 5 000.
   */
  idleInTransactionTimeoutMs?: number | undefined;
}

/** Options of {@link PostgresStore.schedulerStores}. */
export interface SchedulerStoresOptions {
  /** Which lease, state, runs and schedules rows to use. Default `"default"`. */
  scope?: string | undefined;
  /** Lease length in milliseconds; a dead leader is replaced within about this long. Default 15 000. */
  leaseMs?: number | undefined;
}

/** What `createScheduler` (and `createScheduleTools`) take to share one schedule set across hosts. */
export interface PostgresSchedulerStores {
  lock: PostgresLeaderLease;
  stateStore: PostgresStateStore;
  history: PostgresRunHistory;
  source: PostgresScheduleSource;
  /** How often a follower tries to take the lease: a third of it. */
  lockRetryMs: number;
}

/** A connected, migrated PostgreSQL. See {@link connectPostgres}. */
export interface PostgresStore {
  /** `host:port/database`, without credentials, for messages. */
  readonly database: string;
  /** The scheduler's lease, state, run history and schedules, to spread into `createScheduler`'s options. */
  schedulerStores(options?: SchedulerStoresOptions): PostgresSchedulerStores;
  /** Conversation memory shared by every host on this database. */
  memoryStore(): MemoryStore;
  /** Every conversation's messages, verbatim and searchable, for every host: give it to `createAgent({ memory: { archive } })`. */
  messageArchive(): MessageArchive;
  /** Where the MEMORY tool's notes are kept for every host on this database: give it to `createNoteStore({ backend })`. */
  noteBackend(): NoteBackend;
  /**
   * Durable tasks shared by every host on this database: one host runs a task's step at a time,
   * under a lease that fences its writes. Give each runner its own store (each is one lease holder).
   */
  taskStore(options?: Omit<PostgresTaskStoreOptions, 'database'>): PostgresTaskStore;
  /** The daily token budgets' ledger, shared by every host on this database. */
  tokenLedger(): TokenLedger;
  /** A MEMORY note store on this database: `createNoteStore({ ...options, backend: noteBackend() })`. */
  noteStore(options?: NoteRuleOptions): NoteStore;
  /**
   * Who holds the scheduler's lease of `scope` now (an unexpired lease), or undefined when no
   * host leads: a command that must not run beside a running scheduler asks this first.
   */
  leaseHolder(scope?: string): Promise<{ hostname: string; pid: number; acquiredAt: string } | undefined>;
  /** Ends the pool's connections (queries under way finish first, up to 5 s). */
  close(): Promise<void>;
}

/**
 * Connects to PostgreSQL and brings the schema up to date (versioned, idempotent, safe when
 * several hosts start at once). Rejects with one sentence when the server cannot be reached
 * (`DATABASE_UNREACHABLE`), refuses the login (`DATABASE_REFUSED`), or holds a newer schema
 * than this code (`SCHEMA_NEWER`).
 *
 * @example
 * const database = await connectPostgres({ url: config.databaseUrl, logger });
 * const scheduler = createScheduler({ ...database.schedulerStores(), execute, onDeliver });
 */
export async function connectPostgres(options: PostgresStoreOptions): Promise<PostgresStore> {
  const logger = options.logger ?? silentLogger;
  const database = describeDatabase(options.url);
  const sql: Sql = postgres(options.url, {
    max: options.maxConnections ?? STORE_POSTGRES_DEFAULTS.maxConnections,
    connect_timeout: Math.ceil((options.connectTimeoutMs ?? STORE_POSTGRES_DEFAULTS.connectTimeoutMs) / 1000),
    idle_timeout: 60,
    onnotice: () => {},
    connection: {
      application_name: 'macstats',
      idle_in_transaction_session_timeout:
        options.idleInTransactionTimeoutMs ?? STORE_POSTGRES_DEFAULTS.idleInTransactionTimeoutMs,
    },
  });
  try {
    await migrate(sql, logger);
  } catch (error) {
    await sql.end({ timeout: 0 }).catch(() => {});
    throw describeConnectError(error, options.url);
  }
  return {
    database,
    schedulerStores(storeOptions = {}) {
      const scope = storeOptions.scope ?? STORE_POSTGRES_DEFAULTS.scope;
      const leaseMs = storeOptions.leaseMs ?? STORE_POSTGRES_DEFAULTS.leaseMs;
      const lock = new PostgresLeaderLease(sql, { scope, leaseMs, logger, database });
      return {
        lock,
        stateStore: new PostgresStateStore(sql, lock, { scope, database }),
        history: new PostgresRunHistory(sql, lock, { scope, database }),
        source: new PostgresScheduleSource(sql, { scope, database }),
        lockRetryMs: Math.max(1, Math.floor(leaseMs / 3)),
      };
    },
    memoryStore: () => createPostgresMemoryStore(sql, logger),
    messageArchive: () => createPostgresMessageArchive(sql, logger),
    noteBackend: () => createPostgresNoteBackend(sql, logger, database),
    tokenLedger: () => createPostgresTokenLedger(sql, database),
    taskStore: (taskOptions = {}) => createPostgresTaskStore(sql, { ...taskOptions, database }),
    noteStore: (noteOptions = {}) =>
      createNoteStore({
        logger,
        ...noteOptions,
        backend: createPostgresNoteBackend(sql, noteOptions.logger ?? logger, database),
      }),
    async leaseHolder(scope = STORE_POSTGRES_DEFAULTS.scope) {
      const rows = await sql<Array<{ hostname: string; pid: number; acquired_at: Date }>>`
        select hostname, pid, acquired_at from macstats_scheduler_lease
        where scope = ${scope} and expires_at > now()`;
      const row = rows[0];
      return row && { hostname: row.hostname, pid: row.pid, acquiredAt: row.acquired_at.toISOString() };
    },
    close: () => sql.end({ timeout: 5 }),
  };
}
