import { nextRunTimes, type RunRecord, type Schedule } from '@macstats/scheduler';
import { startTestPostgres, type TestPostgres } from '@macstats/testing';
import postgres from 'postgres';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { connectPostgres } from '../src/index.js';
import { HostProcesses } from './host-processes.js';

let server: TestPostgres;
let hosts: HostProcesses | undefined;
beforeAll(async () => {
  server = await startTestPostgres();
});
afterAll(async () => {
  await hosts?.stopAll();
  await server.close();
});

const leaseMs = 1200;
/** Wall time between the faults; the whole run lasts about five of these. */
const phaseMs = 9000;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** 40 second-granularity crons every 5 to 8 s at every offset, and 10 one-shots due before the run can end (its sleeps alone last 38 s). */
function makeSchedules(start: number): Schedule[] {
  const schedules: Schedule[] = [];
  for (const interval of [5, 6, 7, 8]) {
    for (let offset = 0; offset < 10; offset += 1) {
      schedules.push({
        id: `cron-${interval}-${offset}`,
        cron: `${offset % interval}/${interval} * * * * *`,
        task: 'tick',
      });
    }
  }
  for (let index = 1; index <= 10; index += 1) {
    const at = new Date(Math.floor(start / 1000) * 1000 + index * 3500).toISOString();
    schedules.push({ id: `once-${index}`, at, task: 'once' });
  }
  return schedules;
}

it('fires every due run exactly once while leaders are killed twice and paused once', async () => {
  const url = await server.createDatabase('three_hosts');
  const seeding = await connectPostgres({ url });
  const schedules = makeSchedules(Date.now());
  await seeding.schedulerStores().source.import(JSON.stringify({ schedules }));
  await seeding.close();
  const started = new Date();
  hosts = new HostProcesses(url, leaseMs);
  const processes = hosts;
  for (let index = 0; index < 3; index += 1) processes.spawn();

  const failovers: number[] = [];
  let leader = await processes.waitFor((line) => line.words[0] === 'leader');
  for (const fault of ['SIGKILL', 'SIGKILL', 'SIGSTOP'] as const) {
    await sleep(phaseMs);
    const from = processes.lines.length;
    const faultAt = performance.now();
    if (fault === 'SIGKILL') {
      await processes.kill(leader.pid);
      processes.spawn();
    } else {
      processes.children.get(leader.pid)?.kill('SIGSTOP');
    }
    const paused = leader.pid;
    leader = await processes.waitFor(
      (line) => line.words[0] === 'leader' && line.pid !== paused,
      from,
      `a new leader after ${fault}`,
    );
    failovers.push(Math.round(leader.at - faultAt));
    if (fault === 'SIGSTOP') {
      await sleep(2 * leaseMs);
      const woken = processes.lines.length;
      processes.children.get(paused)?.kill('SIGCONT');
      // Waking after losing its lease, it notices and stands down.
      await processes.waitFor(
        (line) => line.words[0] === 'lost' && line.pid === paused,
        woken,
        'the woken leader standing down',
      );
    }
  }
  await sleep(phaseMs);
  expect(await processes.stopAll(), 'hosts that did not stop on SIGTERM').toEqual([]);

  const sql = postgres(url, { onnotice: () => {} });
  const rows = await sql<{ record: RunRecord; epoch: string }[]>`
    select record, epoch from macstats_scheduler_runs order by seq`;
  const history = rows.map((row) => row.record);
  // Leaders in order: the first, then one per fault.
  const epochs = (await sql<{ epoch: string }[]>`select epoch from macstats_scheduler_lease`).map((row) =>
    Number(row.epoch),
  );
  const state = new Map(
    (
      await sql<
        { schedule_id: string; record: { lastDue: string } }[]
      >`select schedule_id, record from macstats_scheduler_state`
    ).map((row) => [row.schedule_id, row.record]),
  );
  await sql.end();

  const fires = new Map<string, number>();
  for (const line of processes.lines.filter((entry) => entry.words[0] === 'fire')) {
    const key = `${line.words[1]} ${line.words[2]}`;
    fires.set(key, (fires.get(key) ?? 0) + 1);
  }
  const records = new Map<string, RunRecord[]>();
  for (const record of history) {
    const key = `${record.id} ${record.due}`;
    records.set(key, [...(records.get(key) ?? []), record]);
  }

  // Every run fired at most once, and a run recorded as done fired exactly once.
  expect([...fires.values()].filter((count) => count > 1)).toEqual([]);
  for (const [key, list] of records) {
    expect(list, key).toHaveLength(1);
    const record = list[0] as RunRecord;
    expect(['ok', 'interrupted'], key).toContain(record.outcome);
    if (record.outcome === 'ok') expect(fires.get(key), key).toBe(1);
  }
  for (const key of fires.keys()) expect(records.has(key), `fired but not recorded: ${key}`).toBe(true);

  // None lost: every cron occurrence from its first run to the last one dealt with has a record.
  for (const schedule of schedules.filter((entry) => entry.cron !== undefined)) {
    const dues = history
      .filter((record) => record.id === schedule.id)
      .map((record) => Date.parse(record.due));
    const first = Math.min(...dues);
    const last = Date.parse(state.get(schedule.id)?.lastDue ?? '');
    const expected = nextRunTimes(schedule, 1000, new Date(first - 1), { timezone: 'UTC' })
      .map((time) => time.getTime())
      .filter((time) => time <= last);
    expect(
      dues.sort((a, b) => a - b),
      schedule.id,
    ).toEqual(expected);
    // It kept firing from the start to the end of the run.
    expect(first - started.getTime(), schedule.id).toBeLessThan(20_000);
    expect(expected.length, schedule.id).toBeGreaterThanOrEqual(3);
  }
  // Every one-shot ran once.
  for (const schedule of schedules.filter((entry) => entry.at !== undefined)) {
    const list = history.filter((record) => record.id === schedule.id);
    expect(
      list.map((record) => record.due),
      schedule.id,
    ).toEqual([new Date(schedule.at as string).toISOString()]);
  }
  // A run is recorded as interrupted only by a host taking over from one that was killed or
  // paused mid-run, never by the first leader. (The stop at the end may add a takeover.)
  expect(epochs[0]).toBeGreaterThanOrEqual(4);
  const interruptedRows = rows.filter((row) => row.record.outcome === 'interrupted');
  for (const row of interruptedRows) expect(Number(row.epoch), row.record.id).toBeGreaterThan(1);
  const interrupted = interruptedRows.length;
  process.stderr.write(
    `three hosts: ${history.length} runs recorded, ${interrupted} interrupted, failovers ${failovers.join(', ')} ms (lease ${leaseMs} ms)\n`,
  );
}, 240_000);
