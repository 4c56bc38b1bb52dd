import type { RunHistoryStore, RunRecord } from '@macstats/scheduler';
import type { Sql } from 'postgres';
import { writeFenced } from './fenced-write.js';
import type { PostgresLeaderLease } from './leader-lease.js';
import { describingFailures } from './postgres-errors.js';

/** Run records in `macstats_scheduler_runs`, each written in one statement fenced by the lease. */
export class PostgresRunHistory implements RunHistoryStore {
  readonly #sql: Sql;
  readonly #scope: string;
  readonly #lease: PostgresLeaderLease;

  readonly #database: string;

  constructor(sql: Sql, lease: PostgresLeaderLease, options: { scope: string; database: string }) {
    this.#sql = sql;
    this.#lease = lease;
    this.#scope = options.scope;
    this.#database = options.database;
  }

  async append(record: RunRecord): Promise<void> {
    const changes = { upserts: {}, removed: [], records: [record] };
    await writeFenced(this.#sql, this.#lease.token(), changes, this.#lease.description);
  }

  /** The newest `limit` records (newest last), as `readRunHistory` gives them from a file. */
  read(limit = 100): Promise<RunRecord[]> {
    return describingFailures(this.#database, async () => {
      const rows = await this.#sql<{ record: RunRecord }[]>`
        select record from (
          select seq, record from macstats_scheduler_runs where scope = ${this.#scope}
          order by seq desc limit ${limit}
        ) newest order by seq`;
      return rows.map((row) => row.record);
    });
  }
}
