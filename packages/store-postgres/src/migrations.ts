import type { Logger } from '@macstats/core';
import type { Sql, TransactionSql } from 'postgres';
import { storeError } from './error-codes.js';

/** One versioned schema step. Steps are append-only: a released step is never edited. */
interface Migration {
  version: number;
  description: string;
  statements: string;
}

const MIGRATIONS: readonly Migration[] = [
  {
    version: 1,
    description: 'scheduler lease, state, runs and schedules; conversation memory',
    statements: `
      create table macstats_scheduler_lease (
        scope text primary key,
        holder text not null,
        epoch bigint not null,
        expires_at timestamptz not null,
        pid integer not null,
        hostname text not null,
        acquired_at timestamptz not null
      );
      create table macstats_scheduler_state (
        scope text not null,
        schedule_id text not null,
        record jsonb not null,
        primary key (scope, schedule_id)
      );
      create table macstats_scheduler_runs (
        seq bigserial primary key,
        scope text not null,
        schedule_id text not null,
        due timestamptz not null,
        outcome text not null,
        record jsonb not null,
        epoch bigint not null,
        recorded_at timestamptz not null default now()
      );
      create index macstats_scheduler_runs_scope_seq on macstats_scheduler_runs (scope, seq);
      create table macstats_schedules (
        scope text primary key,
        document text not null,
        version bigint not null,
        updated_at timestamptz not null default now()
      );
      create table macstats_conversations (
        id text primary key,
        record jsonb not null,
        updated_at bigint not null
      );
      create index macstats_conversations_updated_at on macstats_conversations (updated_at);
    `,
  },
  {
    version: 2,
    description: 'MEMORY notes, one row per scope',
    statements: `
      create table macstats_notes (
        scope text primary key,
        notes jsonb not null default '[]'::jsonb,
        version bigint not null default 0,
        updated_at timestamptz not null default now()
      );
    `,
  },
  {
    version: 3,
    description: 'tokens spent per UTC day, per agent and per channel',
    statements: `
      create table macstats_token_usage (
        day date not null,
        key text not null,
        tokens bigint not null default 0,
        primary key (day, key)
      );
    `,
  },
  {
    version: 4,
    description: 'durable tasks, each with the lease of the host that runs its step',
    statements: `
      create table macstats_tasks (
        id text primary key,
        record jsonb not null,
        version bigint not null default 1,
        created_at timestamptz not null,
        lease_holder text,
        lease_epoch bigint not null default 0,
        lease_expires_at timestamptz
      );
      create index macstats_tasks_created_at on macstats_tasks (created_at, id);
    `,
  },
  {
    version: 5,
    description: "every conversation's messages kept verbatim, searchable by full text",
    statements: `
      create table macstats_messages (
        seq bigserial primary key,
        conversation_id text not null,
        speaker text not null,
        body text not null,
        said_at bigint not null,
        outside boolean not null default false,
        origins text[],
        search tsvector generated always as (to_tsvector('english', speaker || ' ' || body)) stored
      );
      create index macstats_messages_conversation on macstats_messages (conversation_id, seq);
      create index macstats_messages_search on macstats_messages using gin (search);
      create index macstats_messages_said_at on macstats_messages (said_at);
    `,
  },
];

/** The schema version this code writes. */
export const SCHEMA_VERSION = MIGRATIONS.length;

/** Any constant: every macstats host takes this advisory lock while it migrates. */
const MIGRATION_LOCK = 4_242_017_001;

/**
 * Brings the schema to {@link SCHEMA_VERSION}, once, whichever of several hosts starts first:
 * inside one transaction holding an advisory lock, it reads `macstats_schema_version` and runs
 * the missing steps. Rejects with `SCHEMA_NEWER` when the database was migrated by newer code.
 */
export async function migrate(sql: Sql, logger: Logger): Promise<number> {
  return sql.begin(async (tx: TransactionSql) => {
    await tx`select pg_advisory_xact_lock(${MIGRATION_LOCK})`;
    await tx.unsafe(
      'create table if not exists macstats_schema_version (id integer primary key check (id = 1), version integer not null)',
    );
    const rows = await tx<{ version: number }[]>`select version from macstats_schema_version where id = 1`;
    const current = rows[0]?.version ?? 0;
    if (current > SCHEMA_VERSION) {
      throw storeError(
        'SCHEMA_NEWER',
        `The database schema is version ${current}, newer than this code knows (${SCHEMA_VERSION}); upgrade @macstats/store-postgres on this host before starting it.`,
      );
    }
    for (const step of MIGRATIONS.slice(current)) {
      await tx.unsafe(step.statements);
      logger.info({ version: step.version }, `database schema migrated: ${step.description}`);
    }
    await tx`
      insert into macstats_schema_version (id, version) values (1, ${SCHEMA_VERSION})
      on conflict (id) do update set version = excluded.version`;
    return SCHEMA_VERSION;
  }) as Promise<number>;
}
