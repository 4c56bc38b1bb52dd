import { MacstatsError } from '@macstats/core';
import { createScheduler, createScheduleTools, type RunRecord } from '@macstats/scheduler';
import { startTestPostgres, type TestPostgres } from '@macstats/testing';
import postgres from 'postgres';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { connectPostgres, type PostgresStore } from '../src/index.js';

let server: TestPostgres;
let databases = 0;
const open: PostgresStore[] = [];
beforeAll(async () => {
  server = await startTestPostgres();
});
afterAll(() => server.close());
afterEach(async () => {
  await Promise.all(open.splice(0).map((store) => store.close()));
});

async function hosts(count: number): Promise<{ url: string; stores: PostgresStore[] }> {
  const url = await server.createDatabase(`scheduler_${++databases}`);
  const stores = await Promise.all(Array.from({ length: count }, () => connectPostgres({ url })));
  open.push(...stores);
  return { url, stores };
}

function until(check: () => boolean | Promise<boolean>): Promise<void> {
  return new Promise((resolve, reject) => {
    const poll = async () => {
      try {
        if (await check()) resolve();
        else setTimeout(poll, 20);
      } catch (error) {
        reject(error);
      }
    };
    void poll();
  });
}

describe('the PostgreSQL lease', () => {
  it('lets one host of two lead, and the other only once the lease has expired', async () => {
    const { url, stores } = await hosts(2);
    const [a, b] = stores.map((store) => store.schedulerStores({ leaseMs: 60_000 }).lock);
    expect(await a?.acquire()).toEqual({ acquired: true });
    const refused = await b?.acquire();
    expect(refused?.acquired).toBe(false);
    expect(refused?.acquired === false && refused.holder?.pid).toBe(process.pid);
    // Age the lease as if its holder had stopped renewing it.
    const sql = postgres(url, { onnotice: () => {} });
    await sql`update macstats_scheduler_lease set expires_at = now() - interval '1 second'`;
    expect(await b?.acquire()).toEqual({ acquired: true });
    expect(await a?.verify()).toBe(false);
    await sql.end();
  });

  it('refuses a state write from a leader whose lease was taken over (the fencing check)', async () => {
    const { url, stores } = await hosts(2);
    const first = stores[0]?.schedulerStores({ leaseMs: 60_000 });
    const second = stores[1]?.schedulerStores({ leaseMs: 60_000 });
    if (first === undefined || second === undefined) throw new Error('unreachable');
    await first.lock.acquire();
    await first.stateStore.save({
      version: 1,
      schedules: {
        a: { signature: 's', lastDue: '2025-01-01T00:00:00.000Z', updatedAt: '2025-01-01T00:00:00.000Z' },
      },
    });
    const sql = postgres(url, { onnotice: () => {} });
    await sql`update macstats_scheduler_lease set expires_at = now() - interval '1 second'`;
    await second.lock.acquire();
    // The first host has not noticed (it was paused): its write must fail, and change nothing.
    const error = await first.stateStore
      .save({ version: 1, schedules: {} })
      .catch((caught: unknown) => caught);
    expect(MacstatsError.isInstance(error) && error.code).toBe('LOCK_LOST');
    const history = await first.history
      .append({
        id: 'a',
        due: '2025-01-01T00:00:00.000Z',
        start: '2025-01-01T00:00:00.000Z',
        durationMs: 0,
        outcome: 'ok',
      })
      .catch((caught: unknown) => caught);
    expect(MacstatsError.isInstance(history) && history.code).toBe('LOCK_LOST');
    expect(await sql`select schedule_id from macstats_scheduler_state`).toEqual([{ schedule_id: 'a' }]);
    expect(await sql`select count(*)::int as count from macstats_scheduler_runs`).toEqual([{ count: 0 }]);
    await sql.end();
  });
});

describe('the fenced writes', () => {
  it('saves changed state rows, deletes removed ones and appends run records in order, in one write', async () => {
    const { url, stores } = await hosts(1);
    const shared = stores[0]?.schedulerStores({ leaseMs: 60_000 });
    if (shared === undefined) throw new Error('unreachable');
    await shared.lock.acquire();
    const at = '2025-01-01T00:00:00.000Z';
    const entry = (lastDue: string) => ({ signature: 's', lastDue, updatedAt: at });
    await shared.stateStore.save({ version: 1, schedules: { a: entry(at), b: entry(at), c: entry(at) } });
    const run = (id: string, due: string): RunRecord => ({
      id,
      due,
      start: due,
      durationMs: 5,
      outcome: 'ok',
    });
    const later = '2025-01-01T00:01:00.000Z';
    await shared.stateStore.commit?.({ version: 1, schedules: { a: entry(later), c: entry(at) } }, [
      run('a', later),
      run('b', at),
      run('a', '2025-01-01T00:02:00.000Z'),
    ]);
    const sql = postgres(url, { onnotice: () => {} });
    const state = await sql<{ schedule_id: string; last: string }[]>`
      select schedule_id, record->>'lastDue' as last from macstats_scheduler_state order by schedule_id`;
    expect(state).toEqual([
      { schedule_id: 'a', last: later },
      { schedule_id: 'c', last: at },
    ]);
    const runs = await sql<{ schedule_id: string; due: Date; epoch: string }[]>`
      select schedule_id, due, epoch from macstats_scheduler_runs order by seq`;
    expect(runs.map((row) => `${row.schedule_id} ${row.due.toISOString()} ${row.epoch}`)).toEqual([
      `a ${later} 1`,
      `b ${at} 1`,
      'a 2025-01-01T00:02:00.000Z 1',
    ]);
    expect((await shared.history.read(2)).map((record) => record.due)).toEqual([
      at,
      '2025-01-01T00:02:00.000Z',
    ]);
    await sql.end();
  });
});

describe('the shared schedules', () => {
  it('keeps every one of many edits made at once from two hosts', async () => {
    const { stores } = await hosts(2);
    const sources = stores.map((store) => store.schedulerStores().source);
    await Promise.all(
      Array.from({ length: 30 }, (_, index) =>
        sources[index % 2]?.edit((document) => {
          document.schedules.push({ id: `s${index}`, cron: '0 * * * *', task: 'tick' });
        }),
      ),
    );
    const text = (await sources[0]?.read()) ?? '';
    const ids = (JSON.parse(text) as { schedules: Array<{ id: string }> }).schedules.map((entry) => entry.id);
    expect(ids.sort()).toEqual(Array.from({ length: 30 }, (_, index) => `s${index}`).sort());
  });
});

describe('a scheduler on PostgreSQL', () => {
  it('fires each due second once across two hosts, and the other takes over when the leader stops', async () => {
    const { stores } = await hosts(2);
    const fired: string[] = [];
    const schedulers = stores.map((store, host) => {
      const shared = store.schedulerStores({ leaseMs: 900 });
      return createScheduler({
        ...shared,
        timezone: 'UTC',
        execute: async (schedule) => {
          fired.push(`${host} ${schedule.id}`);
          return 'done';
        },
      });
    });
    const tools = createScheduleTools({ source: stores[0]?.schedulerStores().source, minIntervalMs: 1000 });
    const added = await tools[0]?.run('add * * * * * * | say tick | id=tick', {
      signal: AbortSignal.timeout(5000),
    });
    expect(added).toMatchObject({ text: expect.stringContaining('Added schedule "tick"') });
    for (const scheduler of schedulers) await scheduler.start();
    await Promise.all(schedulers.map((scheduler) => scheduler.reload()));
    const leader = schedulers.findIndex((scheduler) => scheduler.isLeader);
    expect(leader).toBeGreaterThanOrEqual(0);
    expect(schedulers.filter((scheduler) => scheduler.isLeader)).toHaveLength(1);
    await until(() => fired.length >= 2);
    await schedulers[leader]?.stop();
    const follower = 1 - leader;
    await until(() => fired.some((line) => line.startsWith(`${follower} `)));
    await schedulers[follower]?.stop();
    const history = (await stores[0]?.schedulerStores().history.read(1000)) as RunRecord[];
    const dues = history.filter((record) => record.outcome === 'ok').map((record) => record.due);
    expect(new Set(dues).size).toBe(dues.length);
    expect(dues.length).toBe(fired.length);
  });
});
