import { randomUUID } from 'node:crypto';
import { hostname } from 'node:os';
import type { Logger } from '@macstats/core';
import type { LeaderLock, LockAttempt, LockHolder } from '@macstats/scheduler';
import type { Sql } from 'postgres';
import { type FenceToken, lockLost } from './fenced-write.js';

interface LeaseRow {
  holder: string;
  epoch: string;
  pid: number;
  hostname: string;
  acquired_at: Date;
}

/**
 * The scheduler's leadership as a lease row in PostgreSQL: one row per scope naming its
 * holder, an expiry (database time, so hosts' clocks do not matter) and an epoch that grows
 * with every change of holder. The holder renews every third of the lease; a holder that dies
 * or is paused stops renewing, and another host takes the row once it has expired.
 *
 * The epoch is a fencing token: every write of scheduler state is one statement
 * ({@link writeFenced}) that checks, under a row lock, that this instance still holds an
 * unexpired lease with its epoch. A leader paused past its lease therefore records
 * nothing when it wakes, and what it does not record it does not run.
 */
export class PostgresLeaderLease implements LeaderLock {
  readonly description: string;
  readonly #sql: Sql;
  readonly #scope: string;
  readonly #leaseMs: number;
  readonly #logger: Logger;
  readonly #id = randomUUID();
  readonly #listeners: Array<() => void> = [];
  #epoch: string | undefined;
  #timer: NodeJS.Timeout | undefined;
  #renewedAt = 0;

  constructor(sql: Sql, options: { scope: string; leaseMs: number; logger: Logger; database: string }) {
    this.#sql = sql;
    this.#scope = options.scope;
    this.#leaseMs = options.leaseMs;
    this.#logger = options.logger;
    this.description = `the PostgreSQL lease "${options.scope}" at ${options.database}`;
  }

  /** The epoch this instance holds, or undefined when it does not lead. */
  get epoch(): string | undefined {
    return this.#epoch;
  }

  async acquire(): Promise<LockAttempt> {
    if (this.#epoch !== undefined) return { acquired: true };
    const seconds = this.#leaseMs / 1000;
    const taken = await this.#sql<{ epoch: string }[]>`
      insert into macstats_scheduler_lease as lease (scope, holder, epoch, expires_at, pid, hostname, acquired_at)
      values (${this.#scope}, ${this.#id}, 1, now() + make_interval(secs => ${seconds}), ${process.pid}, ${hostname()}, now())
      on conflict (scope) do update set
        holder = excluded.holder, epoch = lease.epoch + 1, expires_at = excluded.expires_at,
        pid = excluded.pid, hostname = excluded.hostname, acquired_at = excluded.acquired_at
      where lease.expires_at <= now()
      returning epoch`;
    const row = taken[0];
    if (row !== undefined) {
      this.#epoch = row.epoch;
      this.#renewedAt = performance.now();
      this.#startRenewing();
      this.#logger.info({ scope: this.#scope, epoch: row.epoch }, 'scheduler lease taken');
      return { acquired: true };
    }
    const holders = await this.#sql<LeaseRow[]>`
      select holder, epoch, pid, hostname, acquired_at from macstats_scheduler_lease where scope = ${this.#scope}`;
    const holder = holders[0];
    return { acquired: false, holder: holder === undefined ? undefined : toHolder(holder) };
  }

  async verify(): Promise<boolean> {
    if (this.#epoch === undefined) return false;
    return this.#renew();
  }

  async release(): Promise<void> {
    const epoch = this.#epoch;
    this.#stopRenewing();
    this.#epoch = undefined;
    if (epoch === undefined) return;
    // Expire it now, so another host takes over without waiting out the lease.
    await this.#sql`
      update macstats_scheduler_lease set expires_at = now()
      where scope = ${this.#scope} and holder = ${this.#id} and epoch = ${epoch}`.catch((error: unknown) => {
      this.#logger.warn({ err: error }, 'could not release the scheduler lease; it expires on its own');
    });
  }

  onLost(listener: () => void): void {
    this.#listeners.push(listener);
  }

  /**
   * The holder id and epoch every write of scheduler state is checked against (see
   * {@link writeFenced}); throws `LOCK_LOST` when this instance does not lead.
   */
  token(): FenceToken {
    const epoch = this.#epoch;
    if (epoch === undefined) throw lockLost(this.description);
    return { scope: this.#scope, holder: this.#id, epoch };
  }

  async #renew(): Promise<boolean> {
    const epoch = this.#epoch;
    if (epoch === undefined) return false;
    const seconds = this.#leaseMs / 1000;
    const rows = await this.#sql`
      update macstats_scheduler_lease set expires_at = now() + make_interval(secs => ${seconds})
      where scope = ${this.#scope} and holder = ${this.#id} and epoch = ${epoch}
      returning 1`;
    if (rows.length > 0 && this.#epoch === epoch) {
      this.#renewedAt = performance.now();
      return true;
    }
    this.#markLost(epoch);
    return false;
  }

  #markLost(epoch: string): void {
    if (this.#epoch !== epoch) return;
    this.#epoch = undefined;
    this.#stopRenewing();
    this.#logger.warn({ scope: this.#scope, epoch }, 'scheduler lease lost');
    for (const listener of this.#listeners) listener();
  }

  #startRenewing(): void {
    this.#stopRenewing();
    this.#timer = setInterval(
      () => {
        const epoch = this.#epoch;
        if (epoch === undefined) return;
        this.#renew().catch((error: unknown) => {
          // The database is away: the lease runs out on its own; stop counting on it before then.
          this.#logger.warn({ err: error }, 'could not renew the scheduler lease');
          if (performance.now() - this.#renewedAt >= this.#leaseMs) this.#markLost(epoch);
        });
      },
      Math.max(1, Math.floor(this.#leaseMs / 3)),
    );
    this.#timer.unref();
  }

  #stopRenewing(): void {
    if (this.#timer !== undefined) clearInterval(this.#timer);
    this.#timer = undefined;
  }
}

function toHolder(row: LeaseRow): LockHolder {
  return {
    pid: row.pid,
    hostname: row.hostname,
    token: `${row.holder}#${row.epoch}`,
    bootTime: 0,
    acquiredAt: row.acquired_at.toISOString(),
  };
}
