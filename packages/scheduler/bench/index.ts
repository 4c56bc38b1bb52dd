// Benchmarks of @macstats/scheduler, each against a baseline measured in the same run.
//   1. Firing latency: how late the scheduler calls `execute` after a due time, on the real
//      clock, against how late a bare setTimeout fires for the same wait.
//   2. Tick cost with 1 000 cron schedules: the first tick (plans all) and a later one (plans
//      only what is due), against 1 000 bare cron-parser `next()` calls.
//   3. Parsing: parseSchedules on a 500-entry file, against JSON.parse of the same text.
// Runs in well under a minute; loopback and a temporary folder only.
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { CronExpressionParser } from 'cron-parser';
import { parseSchedules } from '../src/parse-schedules.js';
import { createScheduler } from '../src/scheduler.js';

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? 0;
const max = (values: number[]) => Math.max(...values);
const format = (ms: number) => `${ms.toFixed(2)} ms`;

async function baselineTimerLateness(samples: number): Promise<number[]> {
  const lateness: number[] = [];
  for (let index = 0; index < samples; index += 1) {
    // Wait to the next whole second, like a `* * * * * *` schedule does.
    const due = Math.ceil((Date.now() + 1) / 1000) * 1000;
    await new Promise((resolve) => setTimeout(resolve, due - Date.now()));
    lateness.push(Date.now() - due);
  }
  return lateness;
}

async function schedulerLateness(samples: number): Promise<number[]> {
  const folder = await mkdtemp(join(tmpdir(), 'macstats-scheduler-bench-'));
  const file = join(folder, 'schedules.json');
  await writeFile(file, JSON.stringify({ schedules: [{ id: 'tick', cron: '* * * * * *', task: 'x' }] }));
  const lateness: number[] = [];
  let done: () => void = () => {};
  const finished = new Promise<void>((resolve) => {
    done = resolve;
  });
  const scheduler = createScheduler({
    file,
    timezone: 'UTC',
    watch: false,
    execute: async () => {
      lateness.push(Date.now() - Math.floor(Date.now() / 1000) * 1000);
      if (lateness.length === samples) done();
      return 'ok';
    },
  });
  await scheduler.start();
  await finished;
  await scheduler.stop();
  await rm(folder, { recursive: true, force: true });
  return lateness;
}

/** A clock the bench moves by hand; `fire` runs the earliest timer. */
function manualClock(start: number) {
  let now = start;
  const timers = new Map<number, { at: number; callback: () => void }>();
  let sequence = 0;
  return {
    now: () => now,
    setTimeout(callback: () => void, ms: number) {
      sequence += 1;
      timers.set(sequence, { at: now + ms, callback });
      return sequence;
    },
    clearTimeout: (handle: unknown) => void timers.delete(handle as number),
    fireNext() {
      const [handle, timer] = [...timers.entries()].sort((a, b) => a[1].at - b[1].at)[0] ?? [];
      if (handle === undefined || timer === undefined) return;
      timers.delete(handle);
      now = Math.max(now, timer.at);
      timer.callback();
    },
  };
}

async function planningCost(count: number) {
  const folder = await mkdtemp(join(tmpdir(), 'macstats-scheduler-bench-'));
  const file = join(folder, 'schedules.json');
  const schedules = Array.from({ length: count }, (_, index) => ({
    id: `s${index}`,
    task: 'x',
    cron: `${index % 60} ${index % 24} * * *`,
    timezone: index % 2 === 0 ? 'Europe/Berlin' : 'America/New_York',
  }));
  await writeFile(file, JSON.stringify({ schedules }));
  const clock = manualClock(Date.parse('2025-06-06T12:00:30Z'));
  const scheduler = createScheduler({
    file,
    clock,
    watch: false,
    maxSleepMs: 86_400_000,
    reloadIntervalMs: 86_400_000,
    execute: async () => 'ok',
    onEvent: (event) => {
      if (event.type === 'run-start') runs += 1;
    },
  });
  let runs = 0;
  let start = performance.now();
  await scheduler.start(); // the first tick plans every schedule
  const firstTickMs = performance.now() - start;
  const steady: number[] = [];
  runs = 0;
  for (let round = 0; round < 5; round += 1) {
    start = performance.now();
    clock.fireNext(); // the schedules due next fire; the others are not re-planned
    await scheduler.whenIdle();
    steady.push(performance.now() - start);
  }
  const perRunMs = steady.reduce((sum, value) => sum + value, 0) / Math.max(1, runs);
  await scheduler.stop();
  await rm(folder, { recursive: true, force: true });
  start = performance.now();
  const now = new Date(clock.now());
  for (const schedule of schedules) {
    CronExpressionParser.parse(schedule.cron, { tz: schedule.timezone, currentDate: now }).next();
  }
  return { firstTickMs, perRunMs, runs, baselineMs: performance.now() - start };
}

function parsingCost(count: number): { parseMs: number; baselineMs: number } {
  const text = JSON.stringify({
    schedules: Array.from({ length: count }, (_, index) =>
      index % 2 === 0
        ? { id: `c${index}`, cron: '*/5 9-17 * * 1-5', task: 'Check the build', timezone: 'Europe/Berlin' }
        : { id: `a${index}`, at: '2025-06-06T09:00', task: 'Once', reply_to_channel_id: '123' },
    ),
  });
  const rounds = 5;
  let start = performance.now();
  for (let round = 0; round < rounds; round += 1) parseSchedules(text);
  const parseMs = (performance.now() - start) / rounds;
  start = performance.now();
  for (let round = 0; round < rounds; round += 1) JSON.parse(text);
  return { parseMs, baselineMs: (performance.now() - start) / rounds };
}

const samples = 8;
console.log(`@macstats/scheduler bench (Node ${process.version})`);
const baseline = await baselineTimerLateness(samples);
const measured = await schedulerLateness(samples);
console.log(
  `firing lateness, ${samples} runs of "* * * * * *": scheduler median ${format(median(measured))} max ${format(max(measured))}; ` +
    `bare setTimeout median ${format(median(baseline))} max ${format(max(baseline))}; ` +
    `extra over baseline (median) ${format(median(measured) - median(baseline))}`,
);
await planningCost(100); // warm-up
const planning = await planningCost(1_000);
console.log(
  `1 000 cron schedules: first tick ${format(planning.firstTickMs)} ` +
    `(${(planning.firstTickMs / planning.baselineMs).toFixed(2)}x of 1 000 bare cron-parser next(): ${format(planning.baselineMs)}); ` +
    `later ticks: ${format(planning.perRunMs)} per due run over ${planning.runs} runs, ` +
    `state writes included (${(planning.perRunMs / planning.baselineMs).toFixed(3)}x)`,
);
parsingCost(100); // warm-up
const parsing = parsingCost(500);
console.log(
  `parseSchedules on 500 entries: ${format(parsing.parseMs)}; JSON.parse alone: ${format(parsing.baselineMs)}; ` +
    `ratio ${(parsing.parseMs / parsing.baselineMs).toFixed(1)}x`,
);
