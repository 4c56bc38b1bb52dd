import type { RunHistoryStore, RunRecord } from '@macstats/scheduler';
import type { JSONValue, Sql, TransactionSql } from 'postgres';
import type { PostgresLeaderLease } from './leader-lease.js';

/** Run records in `macstats_scheduler_runs`, each written in a transaction fenced by the lease. */
export class PostgresRunHistory implements RunHistoryStore {
  readonly #sql: Sql;
  readonly #scope: string;
  readonly #lease: PostgresLeaderLease;

  constructor(sql: Sql, lease: PostgresLeaderLease, options: { scope: string }) {
    this.#sql = sql;
    this.#lease = lease;
    this.#scope = options.scope;
  }

  async append(record: RunRecord): Promise<void> {
    await this.#sql.begin(async (tx) => {
      const epoch = await this.#lease.fence(tx);
      await insertRunRecord(tx, this.#scope, record, epoch);
    });
  }

  /** The newest `limit` records (newest last), as `readRunHistory` gives them from a file. */
  async read(limit = 100): Promise<RunRecord[]> {
    const rows = await this.#sql<{ record: RunRecord }[]>`
      select record from (
        select seq, record from macstats_scheduler_runs where scope = ${this.#scope}
        order by seq desc limit ${limit}
      ) newest order by seq`;
    return rows.map((row) => row.record);
  }
}

/** Inserts one run record inside a fenced transaction (`epoch` is the lease's). */
export async function insertRunRecord(
  tx: TransactionSql,
  scope: string,
  record: RunRecord,
  epoch: string,
): Promise<void> {
  await tx`
    insert into macstats_scheduler_runs (scope, schedule_id, due, outcome, record, epoch)
    values (${scope}, ${record.id}, ${record.due}, ${record.outcome}, ${tx.json(record as unknown as JSONValue)}, ${epoch})`;
}
