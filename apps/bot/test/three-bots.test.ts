import { nextRunTimes, type RunRecord, type Schedule } from '@macstats/scheduler';
import { connectPostgres } from '@macstats/store-postgres';
import {
  type FakeDiscord,
  type FakeOllama,
  startFakeDiscord,
  startFakeOllama,
  startTestPostgres,
  type TestPostgres,
} from '@macstats/testing';
import postgres, { type Sql } from 'postgres';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { BotFleet, type FleetBot, logLines, waitForLeader } from './bot-fleet.js';
import { cleanUp } from './helpers.js';

const TOKEN = 'fake-discord-token-1234';
const LEASE_MS = 1200;
/** Results the leader of a phase delivers before the next fault: the run is paced by these. */
const PER_PHASE = 25;
let database: TestPostgres;
let ollama: FakeOllama | undefined;
let discord: FakeDiscord | undefined;
let sql: Sql | undefined;
beforeAll(async () => {
  database = await startTestPostgres();
});
afterAll(async () => {
  await cleanUp();
  await sql?.end();
  await ollama?.close();
  await discord?.close();
  await database.close();
});

/** 40 second-granularity crons every 5 to 8 s at every offset, and 10 one-shots 3 s apart from 12 s on. */
function makeSchedules(start: number, channel: string): Schedule[] {
  const schedules: Schedule[] = [];
  for (const interval of [5, 6, 7, 8])
    for (let offset = 0; offset < 10; offset += 1)
      schedules.push({
        id: `cron-${interval}-${offset}`,
        cron: `${offset % interval}/${interval} * * * * *`,
        task: `Report on task cron-${interval}-${offset}`,
        reply_to_channel_id: channel,
      });
  for (let index = 1; index <= 10; index += 1)
    schedules.push({
      id: `once-${index}`,
      at: new Date(Math.floor(start / 1000) * 1000 + 9000 + index * 3000).toISOString(),
      task: `Report on task once-${index}`,
      reply_to_channel_id: channel,
    });
  return schedules;
}

// A delivery ends with its marker line, by which a retry after a long outage finds it.
const DELIVERY = /^\[Schedule: (\S+)\] done (\S+) by (\S+)\n-# delivery \S+$/;

it('three bots on one PostgreSQL: every due run fires once and every ok run is posted once through SIGKILL, SIGKILL and SIGSTOP of the leader', async () => {
  const url = await database.createDatabase('three_bots');
  ollama = await startFakeOllama({
    models: BotFleet.models(5),
    // The answer names the task and the model, and so the bot process, that answered it.
    reply: (request) => {
      const user = [...request.messages].reverse().find((message) => message.role === 'user');
      const task = /task (\S+)/.exec(user?.content ?? '')?.[1] ?? 'unknown';
      return `done ${task} by ${request.model}`;
    },
  });
  discord = await startFakeDiscord({
    token: TOKEN,
    guilds: [{ name: 'Ops', channels: ['reports'] }],
  });
  const fake = discord;
  const channel = fake.guilds[0]?.channels[0]?.id ?? '';
  const seeding = await connectPostgres({ url });
  const schedules = makeSchedules(Date.now(), channel);
  await seeding.schedulerStores().source.import(JSON.stringify({ schedules }));
  await seeding.close();
  const db = postgres(url, { onnotice: () => {}, max: 1 });
  sql = db;

  const fleet = new BotFleet({
    OLLAMA_HOST: ollama.url,
    DISCORD_BOT_TOKEN: TOKEN,
    DISCORD_API_URL: fake.apiUrl,
    DATABASE_URL: url,
    SCHEDULER_LEASE_MS: String(LEASE_MS),
  });
  for (let index = 0; index < 3; index += 1) await fleet.start();
  await Promise.all(fleet.bots.map(({ bot }) => bot.waitForOutput(/macstats is running/)));

  /** Each delivered result: the schedule and the bot (by its model) that posted it. */
  const deliveries = () =>
    fake.sent.flatMap((record) => {
      if (record.type !== 'create' || record.channelId !== channel) return [];
      const match = DELIVERY.exec(record.content);
      return [{ id: match?.[1] ?? `unparsed: ${record.content}`, label: match?.[3] ?? '?' }];
    });
  const deliveredBy = (label: string, from: number) =>
    deliveries()
      .slice(from)
      .filter((delivery) => delivery.label === label).length;

  const failovers: number[] = [];
  /** The paused bot and where the deliveries stood when it was woken. */
  let woken: { label: string; from: number } | undefined;
  let leaderPid = (await waitForLeader(db, (pid) => fleet.byPid(pid) !== undefined, 'first leader')).pid;
  for (const fault of ['SIGKILL', 'SIGKILL', 'SIGSTOP'] as const) {
    const leader = fleet.byPid(leaderPid) as FleetBot;
    const from = deliveries().length;
    await fake.waitFor(() => deliveredBy(leader.label, from) >= PER_PHASE, {
      timeoutMs: 120_000,
      what: `${PER_PHASE} results delivered by the leader ${leader.label}`,
    });
    const faultAt = performance.now();
    leader.bot.child.kill(fault);
    if (fault === 'SIGKILL') {
      await leader.bot.exited;
      await fleet.start();
    }
    leaderPid = (
      await waitForLeader(
        db,
        (pid) => pid !== leader.bot.pid && fleet.byPid(pid) !== undefined,
        `a new leader after ${fault}`,
      )
    ).pid;
    failovers.push(Math.round(performance.now() - faultAt));
    if (fault === 'SIGSTOP') {
      // Its lease has expired and another bot holds it: woken, it stands down, saying so.
      woken = { label: leader.label, from: deliveries().length };
      leader.bot.child.kill('SIGCONT');
      await leader.bot.waitForOutput(/lost the scheduler lease/);
    }
  }
  // A follower says, at info level, which host leads and that it takes over if that one stops.
  const waiting = fleet.bots.flatMap(({ bot }) =>
    logLines(bot).filter((line) =>
      /^another macstats host \(pid \d+ on .+\) leads the schedules; this one takes over if it stops$/.test(
        line.msg,
      ),
    ),
  );
  expect(waiting.length).toBeGreaterThan(0);
  expect(waiting.every((line) => (line as { level?: number }).level === 30)).toBe(true);

  // The last leader delivers a phase after the last one-shot has been dealt with.
  const lastOneShot = `once-${schedules.filter((entry) => entry.at !== undefined).length}`;
  const until = Date.now() + 120_000;
  while ((await db`select 1 from macstats_scheduler_runs where schedule_id = ${lastOneShot}`).length === 0) {
    if (Date.now() > until) throw new Error(`${lastOneShot} was never recorded`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  const last = fleet.byPid(leaderPid) as FleetBot;
  const tail = deliveries().length;
  await fake.waitFor(() => deliveredBy(last.label, tail) >= PER_PHASE, {
    timeoutMs: 120_000,
    what: `${PER_PHASE} results delivered by the last leader`,
  });

  // Followers first, so no follower takes over while the leader stops; each stops cleanly.
  for (const member of [...fleet.running().filter((m) => m !== last), last]) {
    member.bot.child.kill('SIGTERM');
    expect(await member.bot.exited, member.label).toBe(0);
  }

  const rows = await db<{ seq: string; epoch: string; record: RunRecord }[]>`
    select seq, epoch, record from macstats_scheduler_runs order by seq`;
  const state = new Map(
    (
      await db<{ schedule_id: string; record: { lastDue: string; pending?: unknown[] } }[]>`
      select schedule_id, record from macstats_scheduler_state`
    ).map((row) => [row.schedule_id, row.record]),
  );
  const history = rows.map((row) => row.record);
  const delivered = deliveries();

  // Which bot held which epoch, from each bot's own log of taking the lease.
  const epochOwner = new Map<string, string>();
  for (const { label, bot } of fleet.bots)
    for (const line of logLines(bot))
      if (line.msg === 'scheduler lease taken') epochOwner.set(String(line.epoch), label);
  for (const row of rows) expect(epochOwner.has(String(row.epoch)), `epoch ${row.epoch}`).toBe(true);
  // Fencing: everything written under an epoch comes before anything written under a later one.
  for (let index = 1; index < rows.length; index += 1)
    expect(Number(rows[index]?.epoch), `seq ${rows[index]?.seq}`).toBeGreaterThanOrEqual(
      Number(rows[index - 1]?.epoch),
    );

  const count = (list: Array<{ id: string; label: string }>, id: string, label: string) =>
    list.filter((entry) => entry.id === id && entry.label === label).length;
  for (const delivery of delivered) expect(delivery.label, delivery.id).toMatch(/^host\d+:1b$/);

  // The outbox: every run recorded `ok` is posted exactly once, whichever bot recorded it. A bot
  // SIGKILLed (or paused) between recording a run and posting it leaves the result pending in
  // the state; the next leader posts it with the run's nonce, which Discord does not post twice.
  // A message names the bot that ran the task (by its model), which recorded it under its lease.
  let lost = 0;
  let doubled = 0;
  for (const { label } of fleet.bots)
    for (const schedule of schedules) {
      const ok = rows.filter(
        (row) =>
          row.record.id === schedule.id &&
          row.record.outcome === 'ok' &&
          epochOwner.get(String(row.epoch)) === label,
      ).length;
      const posted = count(delivered, schedule.id, label);
      lost += Math.max(0, ok - posted);
      doubled += Math.max(0, posted - ok);
    }
  expect({ lost, doubled }).toEqual({ lost: 0, doubled: 0 });
  expect(delivered).toHaveLength(history.filter((record) => record.outcome === 'ok').length);
  const nonces = fake.sent.flatMap((record) =>
    record.type === 'create' && record.channelId === channel ? [record.nonce] : [],
  );
  expect(nonces.every((nonce) => nonce !== undefined)).toBe(true);
  expect(new Set(nonces).size, 'one message per nonce').toBe(nonces.length);
  // Nothing is left waiting for delivery.
  expect([...state].filter(([, record]) => record.pending !== undefined).map(([id]) => id)).toEqual([]);
  const redelivered = fleet.bots.reduce(
    (sum, { bot }) =>
      sum +
      logLines(bot)
        .filter((line) => line.msg === 'delivering results recorded but not yet delivered')
        .reduce((inner, line) => inner + Number((line as { results?: number }).results ?? 0), 0),
    0,
  );

  // Every cron occurrence from its first record to the last one dealt with has exactly one record.
  for (const schedule of schedules.filter((entry) => entry.cron !== undefined)) {
    const records = history.filter((record) => record.id === schedule.id);
    // A loaded machine can stall a takeover past two occurrences of a cron, or a run past its
    // next occurrence: the policy records those once, as missed or skipped, and never runs them.
    for (const record of records)
      expect(['ok', 'interrupted', 'aborted', 'missed', 'skipped'], schedule.id).toContain(record.outcome);
    const dues = records
      .flatMap((record) =>
        record.outcome === 'missed' && record.firstMissed !== undefined
          ? nextRunTimes(schedule, record.missed ?? 1, new Date(Date.parse(record.firstMissed) - 1), {
              timezone: 'UTC',
            }).map((time) => time.getTime())
          : [Date.parse(record.due)],
      )
      .sort((a, b) => a - b);
    const lastDue = Date.parse(state.get(schedule.id)?.lastDue ?? '');
    const expected = nextRunTimes(schedule, 1000, new Date((dues[0] ?? 0) - 1), { timezone: 'UTC' })
      .map((time) => time.getTime())
      .filter((time) => time <= lastDue);
    expect(dues, schedule.id).toEqual(expected);
    // It kept firing to the end: its last due is within two intervals of the newest due any
    // schedule reached (the leader's stop may land between dues of one tick). Counting its runs
    // depended on how long a loaded machine took to start the bots (two of an 8 s cron, once).
    const newest = Math.max(...history.map((record) => Date.parse(record.due)));
    const interval = Number(/\/(\d+)/.exec(schedule.cron ?? '')?.[1]) * 1000;
    expect(newest - lastDue, schedule.id).toBeLessThanOrEqual(2 * interval);
    expect(expected.length, schedule.id).toBeGreaterThanOrEqual(2);
  }
  // Every one-shot recorded once, at its time.
  for (const schedule of schedules.filter((entry) => entry.at !== undefined))
    expect(
      history.filter((record) => record.id === schedule.id).map((record) => record.due),
      schedule.id,
    ).toEqual([new Date(schedule.at as string).toISOString()]);
  // The model was asked at most once per recorded run (an interrupted run may have asked it).
  for (const schedule of schedules) {
    const asked = ollama.requests.filter((request) =>
      request.messages.some(
        (message) => message.role === 'user' && new RegExp(`task ${schedule.id}\\b`).test(message.content),
      ),
    ).length;
    expect(asked, schedule.id).toBeLessThanOrEqual(
      history.filter((record) => record.id === schedule.id).length,
    );
  }

  // Posted by the woken bot after SIGCONT: only runs it had recorded before the pause (checked above).
  const wokenPosts = woken ? deliveredBy(woken.label, woken.from) : 0;
  const interrupted = history.filter((record) => record.outcome === 'interrupted').length;
  process.stderr.write(
    `three bots: ${history.length} runs recorded, ${delivered.length} delivered (0 lost, 0 doubled), ${interrupted} interrupted, ${redelivered} found pending and posted again by a new leader, ${wokenPosts} posted by the woken bot after SIGCONT (recorded before its pause); failovers ${failovers.join(', ')} ms (lease ${LEASE_MS} ms)\n`,
  );
}, 300_000);
