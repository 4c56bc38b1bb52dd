import { execFileSync } from 'node:child_process';
import { mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createScheduler } from '../src/scheduler.js';
import { createHarness, type Harness } from './harness.js';
import { deferred } from './helpers.js';

let harness: Harness;
afterEach(() => harness.cleanup());

const stateFile = () => join(harness.folder, 'scheduler-state.json');
const state = () => readFile(stateFile(), 'utf8').then(JSON.parse);
const nextRunOf = (id: string) =>
  harness.scheduler
    .list()
    .find((status) => status.schedule.id === id)
    ?.nextRun?.toISOString();
/** A task that runs until its signal aborts. */
const endless = (_schedule: unknown, signal: AbortSignal) =>
  new Promise<string>((_resolve, reject) => signal.addEventListener('abort', () => reject(signal.reason)));

describe('runNow', () => {
  it('runs the task through execute, delivers it, and resolves with the result', async () => {
    harness = await createHarness(
      [{ id: 'news', cron: '0 9 * * *', task: 'BRAVE_SEARCH: news', reply_to_channel_id: '42' }],
      '2025-06-06T08:00:00Z',
      { task: async () => 'Three headlines' },
    );
    await harness.scheduler.start();
    const result = await harness.scheduler.runNow('news');
    expect(result).toMatchObject({ text: 'Three headlines', isError: false, outcome: 'ok', manual: true });
    expect(result.startedAt.toISOString()).toBe('2025-06-06T08:00:00.000Z');
    expect(harness.calls.map((call) => [call.id, call.at])).toEqual([['news', '2025-06-06T08:00:00.000Z']]);
    expect(harness.deliveries).toHaveLength(1);
    expect(harness.deliveries[0]?.schedule.reply_to_channel_id).toBe('42');
    expect(harness.deliveries[0]?.result).toEqual(result);
  });

  it('records the run in the history, the events and the last run as manual', async () => {
    harness = await createHarness([{ id: 'news', cron: '0 9 * * *', task: 'x' }], '2025-06-06T08:00:00Z');
    await harness.scheduler.start();
    await harness.scheduler.runNow('news');
    expect(await harness.runs()).toEqual([
      {
        id: 'news',
        due: '2025-06-06T08:00:00.000Z',
        start: '2025-06-06T08:00:00.000Z',
        durationMs: 0,
        outcome: 'ok',
        manual: true,
      },
    ]);
    expect(harness.events).toContainEqual(
      expect.objectContaining({ type: 'run-start', id: 'news', manual: true }),
    );
    expect(harness.events).toContainEqual(
      expect.objectContaining({
        type: 'run-end',
        id: 'news',
        record: expect.objectContaining({ manual: true }),
      }),
    );
    expect(harness.scheduler.list()[0]?.lastRun).toMatchObject({ outcome: 'ok', manual: true });
  });

  it('resolves with an error result when the task fails', async () => {
    harness = await createHarness([{ id: 'broken', cron: '0 9 * * *', task: 'x' }], '2025-06-06T08:00:00Z', {
      task: async () => {
        throw new Error('Brave Search answered 429 Too Many Requests');
      },
    });
    await harness.scheduler.start();
    await expect(harness.scheduler.runNow('broken')).resolves.toMatchObject({
      outcome: 'error',
      isError: true,
      text: 'Brave Search answered 429 Too Many Requests',
    });
  });

  it('keeps the next fire time of a cron schedule, which then fires as usual', async () => {
    harness = await createHarness([{ id: 'morning', cron: '0 9 * * *', task: 'x' }], '2025-06-06T08:00:00Z');
    await harness.scheduler.start();
    await harness.clock.advanceTo('2025-06-06T08:30:00Z');
    await harness.scheduler.runNow('morning');
    expect(nextRunOf('morning')).toBe('2025-06-06T09:00:00.000Z');
    expect(harness.clock.nextTimerAt).toBe(Date.parse('2025-06-06T09:00:00Z'));
    await harness.clock.advanceTo('2025-06-06T09:00:00Z');
    expect(harness.calls.map((call) => call.at)).toEqual([
      '2025-06-06T08:30:00.000Z',
      '2025-06-06T09:00:00.000Z',
    ]);
    expect((await harness.runs()).map((run) => run.manual ?? false)).toEqual([true, false]);
  });

  it('leaves a one-shot that has not fired pending, and it still fires at its time', async () => {
    harness = await createHarness(
      [{ id: 'once', at: '2025-06-06T09:00:00Z', task: 'x' }],
      '2025-06-06T08:00:00Z',
    );
    await harness.scheduler.start();
    await harness.scheduler.runNow('once');
    expect(harness.scheduler.list()[0]).toMatchObject({ done: false });
    expect(nextRunOf('once')).toBe('2025-06-06T09:00:00.000Z');
    expect((await state()).schedules.once.done).toBeUndefined();
    await harness.clock.advanceTo('2025-06-06T09:00:00Z');
    expect(harness.calls.map((call) => call.at)).toEqual([
      '2025-06-06T08:00:00.000Z',
      '2025-06-06T09:00:00.000Z',
    ]);
    expect((await state()).schedules.once.done).toBe(true);
  });

  it('fires a one-shot that came due during its manual run once that run ends, instead of skipping it', async () => {
    const slow = deferred<string>();
    let first = true;
    harness = await createHarness(
      [{ id: 'once', at: '2025-06-06T09:00:00Z', task: 'x' }],
      '2025-06-06T08:59:00Z',
      {
        task: async () => {
          if (!first) return 'the real firing';
          first = false;
          return slow.promise;
        },
      },
    );
    await harness.scheduler.start();
    const manual = harness.scheduler.runNow('once');
    await harness.clock.advanceTo('2025-06-06T09:00:30Z');
    expect(harness.calls).toHaveLength(1);
    slow.resolve('the test run');
    await manual;
    await harness.scheduler.whenIdle();
    expect(harness.calls.map((call) => call.at)).toEqual([
      '2025-06-06T08:59:00.000Z',
      '2025-06-06T09:00:30.000Z',
    ]);
    expect((await harness.runs()).map((run) => [run.outcome, run.manual ?? false])).toEqual([
      ['ok', true],
      ['ok', false],
    ]);
  });

  it('reads as running until its history line is written, so a finished run is always in the history', async () => {
    harness = await createHarness([{ id: 'news', cron: '0 9 * * *', task: 'x' }], '2025-06-06T08:00:00Z');
    // A FIFO as runs.jsonl holds the history append until the test reads it: the gap, made wide.
    execFileSync('mkfifo', [join(harness.folder, 'runs.jsonl')]);
    await harness.scheduler.start();
    const status = () => harness.scheduler.list().find((item) => item.schedule.id === 'news');
    const finished = harness.scheduler.runNow('news');
    while (status()?.lastRun === undefined) await new Promise((resolve) => setTimeout(resolve, 5));
    const runningWhileRecording = status()?.running;
    const line = await readFile(join(harness.folder, 'runs.jsonl'), 'utf8');
    expect(runningWhileRecording).toBe(true);
    expect(JSON.parse(line)).toMatchObject({ id: 'news', outcome: 'ok', manual: true });
    await finished;
    expect(status()).toMatchObject({ running: false, lastRun: { outcome: 'ok', manual: true } });
  });

  it('still writes the history line of a run whose state cannot be saved, and says why', async () => {
    const gate = deferred<string>();
    harness = await createHarness([{ id: 'news', cron: '0 9 * * *', task: 'x' }], '2025-06-06T08:00:00Z', {
      task: () => gate.promise,
    });
    await harness.scheduler.start();
    const finished = harness.scheduler.runNow('news');
    await harness.clock.settle();
    // The state file's place taken by a folder: the atomic rename over it fails, as a full disk would.
    await rm(stateFile(), { force: true });
    await mkdir(stateFile());
    gate.resolve('done');
    await finished;
    await harness.scheduler.whenIdle();
    expect(await harness.runs()).toEqual([
      expect.objectContaining({ id: 'news', outcome: 'ok', manual: true }),
    ]);
    expect(harness.errors.map((error) => error.code)).toContain('STATE_WRITE_FAILED');
    await rm(stateFile(), { recursive: true });
  });

  it('refuses a schedule that is already running, in one sentence', async () => {
    const slow = deferred<string>();
    harness = await createHarness([{ id: 'long', cron: '0 9 * * *', task: 'x' }], '2025-06-06T08:00:00Z', {
      task: () => slow.promise,
    });
    await harness.scheduler.start();
    const first = harness.scheduler.runNow('long');
    await harness.scheduler.whenIdle();
    await expect(harness.scheduler.runNow('long')).rejects.toMatchObject({
      code: 'ALREADY_RUNNING',
      message: 'Schedule "long" is running already; wait for it to finish.',
    });
    slow.resolve('done');
    await first;
    expect(harness.calls).toHaveLength(1);
  });

  it('refuses a schedule whose timed run is going', async () => {
    harness = await createHarness([{ id: 'long', cron: '0 9 * * *', task: 'x' }], '2025-06-06T08:59:00Z', {
      task: endless,
    });
    await harness.scheduler.start();
    await harness.clock.advanceTo('2025-06-06T09:00:00Z');
    await expect(harness.scheduler.runNow('long')).rejects.toMatchObject({ code: 'ALREADY_RUNNING' });
    expect(harness.calls).toHaveLength(1);
  });

  it('refuses an unknown id, in one sentence', async () => {
    harness = await createHarness([{ id: 'known', cron: '0 9 * * *', task: 'x' }], '2025-06-06T08:00:00Z');
    await harness.scheduler.start();
    await expect(harness.scheduler.runNow('unknown')).rejects.toMatchObject({
      code: 'UNKNOWN_SCHEDULE',
      message: 'There is no schedule named "unknown".',
    });
    expect(harness.calls).toEqual([]);
  });

  it('refuses in a scheduler that is not started', async () => {
    harness = await createHarness([{ id: 'known', cron: '0 9 * * *', task: 'x' }], '2025-06-06T08:00:00Z');
    await expect(harness.scheduler.runNow('known')).rejects.toMatchObject({ code: 'SCHEDULER_NOT_STARTED' });
  });

  it('refuses in a scheduler that does not hold the lock, naming the process that does', async () => {
    harness = await createHarness([{ id: 'hourly', cron: '0 * * * *', task: 'x' }], '2025-06-06T08:30:00Z');
    const secondCalls: string[] = [];
    const second = createScheduler({
      file: harness.file,
      clock: harness.clock,
      timezone: 'UTC',
      watch: false,
      reloadIntervalMs: 3_600_000,
      execute: async (schedule) => {
        secondCalls.push(schedule.id);
        return 'second';
      },
    });
    await harness.scheduler.start();
    await second.start();
    try {
      expect(second.isLeader).toBe(false);
      const refusal = second.runNow('hourly');
      await expect(refusal).rejects.toMatchObject({ code: 'NOT_LEADER' });
      await expect(refusal).rejects.toThrow(
        new RegExp(
          `^Another process \\(pid ${process.pid} on .+\\) runs the schedules; only it can run "hourly" now\\.$`,
        ),
      );
      expect(secondCalls).toEqual([]);
      await expect(harness.scheduler.runNow('hourly')).resolves.toMatchObject({ outcome: 'ok' });
    } finally {
      await second.stop();
    }
  });

  it('applies the task timeout', async () => {
    harness = await createHarness([{ id: 'hang', cron: '0 9 * * *', task: 'x' }], '2025-06-06T08:00:00Z', {
      taskTimeoutMs: 5_000,
      task: endless,
    });
    await harness.scheduler.start();
    const run = harness.scheduler.runNow('hang');
    await harness.scheduler.whenIdle();
    await harness.clock.advance(5_000);
    await expect(run).resolves.toMatchObject({
      outcome: 'timeout',
      text: 'Schedule "hang" was stopped after 5 s without finishing.',
    });
  });

  it('is aborted by stop(), rejects, and is recorded as an aborted manual run without delivery', async () => {
    harness = await createHarness([{ id: 'long', cron: '0 9 * * *', task: 'x' }], '2025-06-06T08:00:00Z', {
      task: endless,
    });
    await harness.scheduler.start();
    let startedAt: Date | undefined;
    const run = harness.scheduler.runNow('long', { onStart: (started) => (startedAt = started.startedAt) });
    const settled = run.catch((error: unknown) => error);
    await harness.scheduler.whenIdle();
    expect(startedAt?.toISOString()).toBe('2025-06-06T08:00:00.000Z');
    await harness.scheduler.stop();
    expect(harness.calls[0]?.signal.aborted).toBe(true);
    expect(await settled).toMatchObject({ code: 'SCHEDULER_STOPPED' });
    expect(harness.deliveries).toEqual([]);
    expect(await harness.runs()).toEqual([
      expect.objectContaining({ outcome: 'aborted', manual: true, error: 'The scheduler was stopped.' }),
    ]);
  });

  it('marks nothing as fired when the process dies during a manual run', async () => {
    let hang = true;
    harness = await createHarness(
      [{ id: 'once', at: '2025-06-06T09:00:00Z', task: 'x' }],
      '2025-06-06T08:00:00Z',
      {
        task: (schedule, signal) => (hang ? endless(schedule, signal) : Promise.resolve('fired')),
      },
    );
    await harness.scheduler.start();
    void harness.scheduler.runNow('once').catch(() => {});
    await harness.scheduler.whenIdle();
    // The state on disk at the moment of a crash: only the manual run's marker is new.
    const atCrash = await readFile(stateFile(), 'utf8');
    expect(JSON.parse(atCrash).schedules.once).toMatchObject({ running: { manual: true } });
    expect(JSON.parse(atCrash).schedules.once.done).toBeUndefined();
    await harness.scheduler.stop();
    await writeFile(stateFile(), atCrash);
    await writeFile(join(harness.folder, 'runs.jsonl'), '');

    hang = false;
    await harness.restart().start();
    expect(await harness.runs()).toEqual([expect.objectContaining({ outcome: 'interrupted', manual: true })]);
    expect(nextRunOf('once')).toBe('2025-06-06T09:00:00.000Z');
    await harness.clock.advanceTo('2025-06-06T09:00:00Z');
    expect(harness.calls.map((call) => call.at)).toEqual([
      '2025-06-06T08:00:00.000Z',
      '2025-06-06T09:00:00.000Z',
    ]);
    expect((await state()).schedules.once).toMatchObject({ done: true, lastRun: { outcome: 'ok' } });
  });
});
