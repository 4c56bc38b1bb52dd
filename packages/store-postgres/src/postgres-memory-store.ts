import { isConversationRecord, type Logger, type MemoryStore } from '@macstats/core';
import type { JSONValue, Sql } from 'postgres';

/**
 * Conversation memory in `macstats_conversations`, one row per conversation, so a conversation
 * started on one host continues on another with its turns and summary. Same contract as the
 * file store: a row that does not hold a valid record reads as none (and is logged); the TTL is
 * applied by the memory through `sweep`.
 */
export function createPostgresMemoryStore(sql: Sql, logger: Logger): MemoryStore {
  return {
    // Every host reads and writes these records: answers read them fresh, not from a cache.
    shared: true,
    async load(id) {
      const rows = await sql<
        { record: unknown }[]
      >`select record from macstats_conversations where id = ${id}`;
      const row = rows[0];
      if (row === undefined) return undefined;
      if (!isConversationRecord(row.record, id)) {
        logger.warn({ conversation: id }, 'conversation memory row is not a valid record; starting afresh');
        return undefined;
      }
      return row.record;
    },
    async save(record) {
      await sql`
        insert into macstats_conversations (id, record, updated_at)
        values (${record.id}, ${sql.json(toJson(record))}, ${record.updatedAt})
        on conflict (id) do update set record = excluded.record, updated_at = excluded.updated_at`;
    },
    async delete(id) {
      await sql`delete from macstats_conversations where id = ${id}`;
    },
    async sweep(cutoff) {
      const rows = await sql`delete from macstats_conversations where updated_at < ${cutoff} returning 1`;
      return rows.length;
    },
  };
}

/** A plain JSON value for the driver's `json` helper (records are plain data already). */
function toJson(value: unknown): JSONValue {
  return value as JSONValue;
}
