import type { RunRecord, SchedulerState, ScheduleState, ScheduleStateStore } from '@macstats/scheduler';
import type { JSONValue, Sql } from 'postgres';
import type { PostgresLeaderLease } from './leader-lease.js';
import { insertRunRecord } from './postgres-run-history.js';

/**
 * The scheduler's state (what fired, runs under way, one-shots done) as one row per schedule.
 * A save writes only the rows that changed, in one transaction fenced by the lease, so a
 * leader that lost its lease writes nothing and so starts nothing.
 */
export class PostgresStateStore implements ScheduleStateStore {
  readonly description: string;
  readonly #sql: Sql;
  readonly #scope: string;
  readonly #lease: PostgresLeaderLease;
  /** What this instance last read or wrote, per schedule id, as JSON. */
  #saved = new Map<string, string>();

  constructor(sql: Sql, lease: PostgresLeaderLease, options: { scope: string; database: string }) {
    this.#sql = sql;
    this.#lease = lease;
    this.#scope = options.scope;
    this.description = `the scheduler state "${options.scope}" at ${options.database}`;
  }

  async load(): Promise<{ state: SchedulerState }> {
    const rows = await this.#sql<{ schedule_id: string; record: ScheduleState }[]>`
      select schedule_id, record from macstats_scheduler_state where scope = ${this.#scope}`;
    const state: SchedulerState = { version: 1, schedules: {} };
    this.#saved = new Map();
    for (const row of rows) {
      state.schedules[row.schedule_id] = row.record;
      this.#saved.set(row.schedule_id, JSON.stringify(row.record));
    }
    return { state };
  }

  save(state: SchedulerState): Promise<void> {
    return this.commit(state, []);
  }

  /** Saves the state and appends `records` in one transaction, fenced by the lease. */
  async commit(state: SchedulerState, records: readonly RunRecord[]): Promise<void> {
    const next = new Map(Object.entries(state.schedules).map(([id, record]) => [id, JSON.stringify(record)]));
    const changed = [...next].filter(([id, json]) => this.#saved.get(id) !== json);
    const removed = [...this.#saved.keys()].filter((id) => !next.has(id));
    await this.#sql.begin(async (tx) => {
      const epoch = await this.#lease.fence(tx);
      for (const [id, json] of changed) {
        await tx`
          insert into macstats_scheduler_state (scope, schedule_id, record)
          values (${this.#scope}, ${id}, ${tx.json(JSON.parse(json) as JSONValue)})
          on conflict (scope, schedule_id) do update set record = excluded.record`;
      }
      if (removed.length > 0) {
        await tx`delete from macstats_scheduler_state where scope = ${this.#scope} and schedule_id = any(${removed})`;
      }
      for (const record of records) await insertRunRecord(tx, this.#scope, record, epoch);
    });
    this.#saved = next;
  }
}
