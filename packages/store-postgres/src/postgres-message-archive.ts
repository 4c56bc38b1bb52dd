import type { ArchivedMessage, Logger, MessageArchive } from '@macstats/core';
import type { Sql } from 'postgres';

interface MessageRow {
  seq: string;
  speaker: string;
  body: string;
  said_at: string;
  outside: boolean;
  origins: string[] | null;
}

function toMessage(row: MessageRow): ArchivedMessage {
  const message: ArchivedMessage = {
    seq: Number(row.seq),
    speaker: row.speaker,
    text: row.body,
    at: Number(row.said_at),
  };
  if (row.outside) message.outside = true;
  if (row.origins && row.origins.length > 0) message.origins = row.origins;
  return message;
}

/** The words of a search as an OR query PostgreSQL's `websearch_to_tsquery` reads safely. */
function orQuery(query: string): string {
  return (query.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? []).join(' or ');
}

/**
 * Every conversation's messages in `macstats_messages`, one row each, verbatim with speaker,
 * time and outside labels, so any host recalls what was said on another. `search` ranks with the
 * table's `tsvector` (English stems, `ts_rank_cd`); recall reads only the rows added since it last
 * looked (`seq` grows across the table).
 */
export function createPostgresMessageArchive(sql: Sql, logger: Logger): MessageArchive {
  return {
    shared: true,
    async append(id, messages) {
      const added: ArchivedMessage[] = [];
      // In one transaction, a thousand rows a statement: an import of thousands stays under the
      // protocol's parameter limit and lands whole or not at all.
      await sql.begin(async (tx) => {
        for (let start = 0; start < messages.length; start += 1000) {
          const rows = await tx<MessageRow[]>`
            insert into macstats_messages ${tx(
              messages.slice(start, start + 1000).map((message) => ({
                conversation_id: id,
                speaker: message.speaker,
                body: message.text,
                said_at: message.at,
                outside: message.outside === true,
                origins: message.origins ?? null,
              })),
            )}
            returning seq, speaker, body, said_at, outside, origins`;
          added.push(...rows.map(toMessage));
        }
      });
      return added.sort((a, b) => a.seq - b.seq);
    },
    async read(id, after = 0) {
      const rows = await sql<MessageRow[]>`
        select seq, speaker, body, said_at, outside, origins from macstats_messages
        where conversation_id = ${id} and seq > ${after} order by seq`;
      return rows.map(toMessage);
    },
    async remove(id, seq) {
      const rows =
        await sql`delete from macstats_messages where conversation_id = ${id} and seq = ${seq} returning 1`;
      return rows.length > 0;
    },
    async clear(id) {
      const rows = await sql`delete from macstats_messages where conversation_id = ${id} returning 1`;
      return rows.length;
    },
    async conversations() {
      const rows = await sql<{ conversation_id: string }[]>`
        select distinct conversation_id from macstats_messages order by conversation_id`;
      return rows.map((row) => row.conversation_id);
    },
    async prune(cutoff) {
      const rows = await sql`delete from macstats_messages where said_at < ${cutoff} returning 1`;
      if (rows.length > 0)
        logger.info({ messages: rows.length }, 'archived messages past their retention deleted');
      return rows.length;
    },
    async search(id, query, limit) {
      const words = orQuery(query);
      if (words === '') return [];
      const rows = await sql<(MessageRow & { score: number })[]>`
        select seq, speaker, body, said_at, outside, origins,
               ts_rank_cd(search, websearch_to_tsquery('english', ${words})) as score
        from macstats_messages
        where conversation_id = ${id} and search @@ websearch_to_tsquery('english', ${words})
        order by score desc, seq desc limit ${limit}`;
      return rows.map((row) => ({ message: toMessage(row), score: Number(row.score) }));
    },
  };
}
