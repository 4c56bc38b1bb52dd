import { nextRunTimes, type RunRecord, type Schedule } from '@macstats/scheduler';
import { startTestPostgres, type TestPostgres } from '@macstats/testing';
import postgres from 'postgres';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { connectPostgres } from '../src/index.js';
import { type HostLine, HostProcesses } from './host-processes.js';

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
/** Runs the leader of a phase fires before the next fault; the whole run is paced by these, not by clocks. */
const runsPerPhase = 30;

/**
 * 40 second-granularity crons every 5 to 8 s at every offset, 3 slow ones (each run lasts
 * 1.5 s, so a fault can land mid-run), and 10 one-shots due every 3.5 s from the start.
 */
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
  for (let offset = 0; offset < 3; offset += 1) {
    schedules.push({ id: `slow-${offset}`, cron: `${offset}/4 * * * * *`, task: 'slow' });
  }
  for (let index = 1; index <= 10; index += 1) {
    const at = new Date(Math.floor(start / 1000) * 1000 + index * 3500).toISOString();
    schedules.push({ id: `once-${index}`, at, task: 'once' });
  }
  return schedules;
}

const isFire = (line: HostLine) => line.words[0] === 'fire';
const runKey = (line: HostLine) => `${line.words[1]} ${line.words[2]}`;

it('fires every due run exactly once while leaders are killed twice and paused once', async () => {
  const url = await server.createDatabase('three_hosts');
  // Compiled before the clock of the run starts: the schedules are due from `started` on.
  hosts = await HostProcesses.create(url, leaseMs);
  const seeding = await connectPostgres({ url });
  const schedules = makeSchedules(Date.now());
  await seeding.schedulerStores().source.import(JSON.stringify({ schedules }));
  await seeding.close();
  const started = new Date();
  const processes = hosts;
  for (let index = 0; index < 3; index += 1) processes.spawn();

  /** Waits until `pid` has fired `count` runs after line `from`, then for its next slow run; resolves that line. */
  const slowRunAfter = async (pid: number, from: number, count: number) => {
    let fired = 0;
    await processes.waitFor(
      (line) => line.pid === pid && isFire(line) && ++fired >= count,
      from,
      `${count} runs fired by the leader`,
    );
    return processes.waitFor(
      (line) => line.pid === pid && isFire(line) && line.words[1]?.startsWith('slow-') === true,
      processes.lines.length,
      'a slow run fired by the leader',
    );
  };

  const failovers: number[] = [];
  /** Slow runs under way on a leader at the moment it was killed or paused. */
  const cutShort: string[] = [];
  let leader = await processes.waitFor((line) => line.words[0] === 'leader');
  for (const fault of ['SIGKILL', 'SIGKILL', 'SIGSTOP'] as const) {
    // The fault lands while the leader is in the middle of a slow run.
    const slow = await slowRunAfter(leader.pid, processes.lines.indexOf(leader), runsPerPhase);
    cutShort.push(runKey(slow));
    const from = processes.lines.length;
    const faultAt = performance.now();
    const faultWall = Date.now();
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
      // Its lease has expired (another host holds it): waking, it stands down and starts nothing
      // new. A run it had already recorded (the write reached PostgreSQL before the pause) may
      // still start as it wakes; the exactly-once checks below count it like any other. So no run
      // due after the pause may start on it. "After waking" is read from the host's own clock: a
      // fire line written before the pause may still be in the pipe, and be read after.
      const woken = processes.lines.length;
      const wokeAt = Date.now();
      processes.children.get(paused)?.kill('SIGCONT');
      await processes.waitFor(
        (line) => line.words[0] === 'lost' && line.pid === paused,
        woken,
        'the woken leader standing down',
      );
      const firedAwake = processes.lines
        .slice(woken)
        .filter((line) => line.pid === paused && isFire(line) && Number(line.words[3]) >= wokeAt);
      expect(firedAwake.filter((line) => Date.parse(line.words[2] ?? '') > faultWall)).toEqual([]);
    }
  }
  // The last leader runs a full phase and the last one-shot comes due.
  let fired = 0;
  await processes.waitFor(
    (line) => line.pid === leader.pid && isFire(line) && ++fired >= runsPerPhase,
    processes.lines.indexOf(leader),
    `${runsPerPhase} runs fired by the last leader`,
  );
  await processes.waitFor((line) => isFire(line) && line.words[1] === 'once-10', 0, 'the last one-shot');
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
  for (const line of processes.lines.filter(isFire)) {
    const key = runKey(line);
    fires.set(key, (fires.get(key) ?? 0) + 1);
  }
  const records = new Map<string, RunRecord[]>();
  for (const record of history) {
    const key = `${record.id} ${record.due}`;
    records.set(key, [...(records.get(key) ?? []), record]);
  }

  // Every run fired at most once, and a run recorded as done (or aborted by the clean stop at
  // the end) fired exactly once.
  expect([...fires.values()].filter((count) => count > 1)).toEqual([]);
  for (const [key, list] of records) {
    expect(list, key).toHaveLength(1);
    const record = list[0] as RunRecord;
    // A loaded machine can stall a takeover past more than one occurrence of a 4 s cron: the
    // policy (missedCron 'skip') then records the earlier ones once as missed, never fired.
    expect(['ok', 'interrupted', 'aborted', 'missed', 'skipped'], key).toContain(record.outcome);
    if (record.outcome === 'missed' || record.outcome === 'skipped')
      expect(fires.get(key), key).toBeUndefined();
    else if (record.outcome !== 'interrupted') expect(fires.get(key), key).toBe(1);
  }
  for (const key of fires.keys()) expect(records.has(key), `fired but not recorded: ${key}`).toBe(true);

  // None lost: every cron occurrence from its first run to the last one dealt with has a record.
  const newest = Math.max(...history.map((record) => Date.parse(record.due)));
  for (const schedule of schedules.filter((entry) => entry.cron !== undefined)) {
    // A missed record stands for every occurrence from its first missed to its due.
    const dues = history
      .filter((record) => record.id === schedule.id)
      .flatMap((record) =>
        record.outcome === 'missed' && record.firstMissed !== undefined
          ? nextRunTimes(schedule, record.missed ?? 1, new Date(Date.parse(record.firstMissed) - 1), {
              timezone: 'UTC',
            }).map((time) => time.getTime())
          : [Date.parse(record.due)],
      );
    const first = Math.min(...dues);
    const last = Date.parse(state.get(schedule.id)?.lastDue ?? '');
    const expected = nextRunTimes(schedule, 1000, new Date(first - 1), { timezone: 'UTC' })
      .map((time) => time.getTime())
      .filter((time) => time <= last);
    expect(
      dues.sort((a, b) => a - b),
      schedule.id,
    ).toEqual(expected);
    // It kept firing from the start to the end of the run: its last due is within two intervals
    // (and the second the stop landed in) of the newest due any schedule reached. One interval
    // was too tight on a loaded machine: a leader killed just before the stop leaves the next
    // occurrence to a takeover the stop may come before, which is no lost run (nothing was due
    // to a live leader). Counting its runs instead depended on how long the hosts took to start.
    expect(first - started.getTime(), schedule.id).toBeLessThan(20_000);
    const interval = Number(/\/(\d+)/.exec(schedule.cron ?? '')?.[1]) * 1000;
    expect(newest - last, schedule.id).toBeLessThanOrEqual(2 * interval + 1000);
    expect(expected.length, schedule.id).toBeGreaterThanOrEqual(2);
  }
  // Every one-shot ran once.
  for (const schedule of schedules.filter((entry) => entry.at !== undefined)) {
    const list = history.filter((record) => record.id === schedule.id);
    expect(
      list.map((record) => record.due),
      schedule.id,
    ).toEqual([new Date(schedule.at as string).toISOString()]);
  }
  // The slow runs a fault cut short: fired once, then recorded as interrupted by the next leader.
  for (const key of cutShort) {
    expect(fires.get(key), key).toBe(1);
    expect(
      records.get(key)?.map((record) => record.outcome),
      key,
    ).toEqual(['interrupted']);
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
