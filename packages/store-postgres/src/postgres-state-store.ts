import type { RunRecord, SchedulerState, ScheduleState, ScheduleStateStore } from '@macstats/scheduler';
import type { Sql } from 'postgres';
import { writeFenced } from './fenced-write.js';
import type { PostgresLeaderLease } from './leader-lease.js';

/**
 * The scheduler's state (what fired, runs under way, one-shots done) as one row per schedule.
 * A save writes only the rows that changed, in one statement fenced by the lease, so a leader
 * that lost its lease writes nothing and so starts nothing.
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

  /** Saves the state and appends `records` in one statement, fenced by the lease (see {@link writeFenced}). */
  async commit(state: SchedulerState, records: readonly RunRecord[]): Promise<void> {
    const next = new Map(Object.entries(state.schedules).map(([id, record]) => [id, JSON.stringify(record)]));
    const upserts: Record<string, ScheduleState> = {};
    for (const [id, json] of next) {
      if (this.#saved.get(id) !== json) upserts[id] = state.schedules[id] as ScheduleState;
    }
    const removed = [...this.#saved.keys()].filter((id) => !next.has(id));
    await writeFenced(this.#sql, this.#lease.token(), { upserts, removed, records }, this.#lease.description);
    this.#saved = next;
  }
}
