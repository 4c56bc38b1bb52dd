import { afterEach, describe, expect, it } from 'vitest';
import { formatDelivery } from '../src/format.js';
import { createHarness, type Harness } from './harness.js';
import { deferred } from './helpers.js';

let harness: Harness;
afterEach(() => harness.cleanup());

describe('scheduler runs', () => {
  it('sleeps until the due time and fires then, not before', async () => {
    harness = await createHarness(
      [{ id: 'morning', cron: '0 9 * * *', task: 'Good morning' }],
      '2025-06-06T08:00:00Z',
    );
    await harness.scheduler.start();
    // One timer for the due time (plus the periodic file check), not a polling loop.
    expect(harness.clock.nextTimerAt).toBe(Date.parse('2025-06-06T09:00:00Z'));
    await harness.clock.advanceTo('2025-06-06T08:59:59.999Z');
    expect(harness.calls).toEqual([]);
    await harness.clock.advanceTo('2025-06-06T09:00:00Z');
    expect(harness.calls.map((call) => [call.id, call.at])).toEqual([
      ['morning', '2025-06-06T09:00:00.000Z'],
    ]);
  });

  it('wakes at least every maxSleepMs to re-read the clock, and no more often', async () => {
    harness = await createHarness([{ id: 'later', cron: '0 9 * * *', task: 'x' }], '2025-06-06T08:00:00Z', {
      maxSleepMs: 60_000,
    });
    await harness.scheduler.start();
    expect(harness.clock.nextTimerAt).toBe(Date.parse('2025-06-06T08:01:00Z'));
  });

  it('delivers the result with its schedule and records the run in runs.jsonl', async () => {
    harness = await createHarness(
      [{ id: 'news', cron: '*/30 * * * *', task: 'BRAVE_SEARCH: news', reply_to_channel_id: '42' }],
      '2025-06-06T08:10:00Z',
      { task: async () => 'Three headlines' },
    );
    await harness.scheduler.start();
    await harness.clock.advanceTo('2025-06-06T08:30:00Z');
    expect(harness.deliveries).toHaveLength(1);
    const [delivery] = harness.deliveries;
    expect(delivery?.schedule.reply_to_channel_id).toBe('42');
    expect(delivery?.result).toMatchObject({ text: 'Three headlines', isError: false, outcome: 'ok' });
    expect(formatDelivery(delivery!.schedule, delivery!.result)).toBe('[Schedule: news] Three headlines');
    expect(await harness.runs()).toEqual([
      {
        id: 'news',
        due: '2025-06-06T08:30:00.000Z',
        start: '2025-06-06T08:30:00.000Z',
        durationMs: 0,
        outcome: 'ok',
      },
    ]);
  });

  it('reports a failed task as an error result that says why', async () => {
    harness = await createHarness([{ id: 'broken', cron: '0 * * * *', task: 'x' }], '2025-06-06T08:10:00Z', {
      task: async () => {
        throw new Error('Brave Search answered 429 Too Many Requests');
      },
    });
    await harness.scheduler.start();
    await harness.clock.advanceTo('2025-06-06T09:00:00Z');
    expect(harness.deliveries[0]?.result).toMatchObject({
      isError: true,
      outcome: 'error',
      text: 'Brave Search answered 429 Too Many Requests',
    });
    expect((await harness.runs())[0]).toMatchObject({
      outcome: 'error',
      error: 'Brave Search answered 429 Too Many Requests',
    });
  });

  it('does not start a task again while its previous run is still going', async () => {
    const slow = deferred<string>();
    harness = await createHarness(
      [{ id: 'minutely', cron: '* * * * *', task: 'x' }],
      '2025-06-06T08:00:30Z',
      {
        task: () => slow.promise,
      },
    );
    await harness.scheduler.start();
    await harness.clock.advanceTo('2025-06-06T08:03:00Z');
    expect(harness.calls.map((call) => call.at)).toEqual(['2025-06-06T08:01:00.000Z']);
    expect((await harness.runs()).map((run) => [run.outcome, run.due])).toEqual([
      ['skipped', '2025-06-06T08:02:00.000Z'],
      ['skipped', '2025-06-06T08:03:00.000Z'],
    ]);
    slow.resolve('done at last');
    await harness.scheduler.whenIdle();
    await harness.clock.advanceTo('2025-06-06T08:04:00Z');
    expect(harness.calls).toHaveLength(2);
  });

  it('aborts a task that outlives its timeout and delivers a timeout error', async () => {
    harness = await createHarness([{ id: 'hang', cron: '0 * * * *', task: 'x' }], '2025-06-06T08:30:00Z', {
      taskTimeoutMs: 5_000,
      task: (_schedule, signal) =>
        new Promise<string>((_resolve, reject) =>
          signal.addEventListener('abort', () => reject(signal.reason)),
        ),
    });
    await harness.scheduler.start();
    await harness.clock.advanceTo('2025-06-06T09:00:04Z');
    expect(harness.calls[0]?.signal.aborted).toBe(false);
    await harness.clock.advanceTo('2025-06-06T09:00:05Z');
    expect(harness.calls[0]?.signal.aborted).toBe(true);
    expect(harness.deliveries[0]?.result).toMatchObject({
      outcome: 'timeout',
      isError: true,
      text: 'Schedule "hang" was stopped after 5 s without finishing.',
    });
    expect((await harness.runs())[0]).toMatchObject({ outcome: 'timeout', durationMs: 5_000 });
  });

  it('uses a 10-minute task timeout by default', async () => {
    harness = await createHarness(
      [{ id: 'hang', at: '2025-06-06T09:00:00Z', task: 'x' }],
      '2025-06-06T08:59:00Z',
      {
        task: (_schedule, signal) =>
          new Promise<string>((_resolve, reject) =>
            signal.addEventListener('abort', () => reject(signal.reason)),
          ),
      },
    );
    await harness.scheduler.start();
    await harness.clock.advanceTo('2025-06-06T09:09:59.999Z');
    expect(harness.calls[0]?.signal.aborted).toBe(false);
    await harness.clock.advanceTo('2025-06-06T09:10:00Z');
    expect(harness.calls[0]?.signal.aborted).toBe(true);
  });

  it('aborts the signal of a running task on stop() and records it as aborted, without delivering', async () => {
    harness = await createHarness(
      [{ id: 'long', at: '2025-06-06T09:00:00Z', task: 'x' }],
      '2025-06-06T08:59:00Z',
      {
        task: (_schedule, signal) =>
          new Promise<string>((_resolve, reject) =>
            signal.addEventListener('abort', () => reject(signal.reason)),
          ),
      },
    );
    await harness.scheduler.start();
    await harness.clock.advanceTo('2025-06-06T09:00:01Z');
    await harness.scheduler.stop();
    expect(harness.calls[0]?.signal.aborted).toBe(true);
    expect(harness.deliveries).toEqual([]);
    expect((await harness.runs())[0]).toMatchObject({
      outcome: 'aborted',
      error: 'The scheduler was stopped.',
    });
  });

  it('lists schedules with next and last runs, and dry-runs the next fire times', async () => {
    harness = await createHarness(
      [
        { id: 'daily', cron: '0 9 * * *', task: 'x', timezone: 'Europe/Berlin' },
        { id: 'once', at: '2025-06-06T10:00:00Z', task: 'y' },
      ],
      '2025-06-06T06:00:00Z',
    );
    await harness.scheduler.start();
    await harness.clock.advanceTo('2025-06-06T10:00:00Z');
    const [daily, once] = harness.scheduler.list();
    expect(daily).toMatchObject({ timezone: 'Europe/Berlin', running: false, done: false });
    expect(daily?.nextRun?.toISOString()).toBe('2025-06-07T07:00:00.000Z');
    expect(daily?.lastRun?.due.toISOString()).toBe('2025-06-06T07:00:00.000Z');
    expect(once).toMatchObject({ done: true, lastRun: { outcome: 'ok' } });
    expect(once?.nextRun).toBeUndefined();
    const plan = harness.scheduler.dryRun(2);
    expect(plan.map((entry) => [entry.id, entry.times.map((time) => time.toISOString())])).toEqual([
      ['daily', ['2025-06-07T07:00:00.000Z', '2025-06-08T07:00:00.000Z']],
      ['once', []],
    ]);
  });
});
