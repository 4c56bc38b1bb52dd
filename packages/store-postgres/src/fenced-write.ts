import type { MacstatsError } from '@macstats/core';
import type { RunRecord, ScheduleState } from '@macstats/scheduler';
import { lockLostError } from '@macstats/scheduler';
import type { JSONValue, Sql } from 'postgres';

/** What one fenced write changes: state rows to set, state rows to delete, run records to append. */
export interface FencedChanges {
  upserts: Record<string, ScheduleState>;
  removed: readonly string[];
  records: readonly RunRecord[];
}

/** The lease a fenced write is checked against: the holder id and the epoch it holds. */
export interface FenceToken {
  scope: string;
  holder: string;
  epoch: string;
}

/**
 * Writes scheduler state and run records in ONE statement that first locks the lease row and
 * checks that `token` still holds it unexpired; the other parts join on that check, so with a
 * lost lease nothing is written. Throws `LOCK_LOST` (with `description`) when the check fails.
 *
 * Why one statement rather than a transaction of several: when the server ends a session that
 * sat idle inside a transaction (a host paused past `idle_in_transaction_session_timeout`), the
 * `postgres` client rejects the transaction but still sends the callback's later queries, on a
 * new connection, outside any transaction. A paused leader waking up would then write unfenced.
 * A single statement is atomic on the server whatever the client does, and costs one round trip.
 */
export async function writeFenced(
  sql: Sql,
  token: FenceToken,
  changes: FencedChanges,
  description: string,
): Promise<void> {
  const { scope, holder, epoch } = token;
  const rows = await sql<{ epoch: string }[]>`
    with fence as (
      select epoch from macstats_scheduler_lease
      where scope = ${scope} and holder = ${holder} and epoch = ${epoch} and expires_at > now()
      for update
    ), upserted as (
      insert into macstats_scheduler_state (scope, schedule_id, record)
      select ${scope}, entry.key, entry.value
      from fence, jsonb_each(${sql.json(changes.upserts as unknown as JSONValue)}::jsonb) as entry
      on conflict (scope, schedule_id) do update set record = excluded.record
      returning 1
    ), removed as (
      delete from macstats_scheduler_state
      where scope = ${scope} and schedule_id = any(${changes.removed as string[]}::text[])
        and exists (select 1 from fence)
      returning 1
    ), appended as (
      insert into macstats_scheduler_runs (scope, schedule_id, due, outcome, record, epoch)
      select ${scope}, run.record->>'id', (run.record->>'due')::timestamptz, run.record->>'outcome',
        run.record, fence.epoch
      from fence, jsonb_array_elements(${sql.json(changes.records as unknown as JSONValue)}::jsonb)
        with ordinality as run(record, position)
      order by run.position
      returning 1
    )
    select epoch from fence`;
  if (rows.length === 0) throw lockLost(description);
}

/** The error a write from a scheduler that no longer leads gets. */
export function lockLost(description: string): MacstatsError {
  return lockLostError(
    `This scheduler no longer holds ${description}; another host leads, so nothing was recorded.`,
  );
}
