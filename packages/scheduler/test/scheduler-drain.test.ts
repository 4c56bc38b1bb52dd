import { afterEach, describe, expect, it } from 'vitest';
import { createHarness, type Harness } from './harness.js';
import { deferred } from './helpers.js';

let harness: Harness;
afterEach(() => harness.cleanup());

const EVERY_SECOND = [
  { id: 'tick', cron: '* * * * * *', task: 'a' },
  { id: 'tock', cron: '*/2 * * * * *', task: 'b' },
];
const starts = () => harness.events.filter((event) => event.type === 'run-start').length;

describe('scheduler drain', () => {
  it('starts no run while draining, though second crons come due, and resolves once the runs in progress are delivered', async () => {
    const gate = deferred<void>();
    harness = await createHarness(EVERY_SECOND, '2025-06-06T08:00:00.500Z', {
      task: async (schedule) => {
        await gate.promise;
        return `done ${schedule.id}`;
      },
    });
    await harness.scheduler.start();
    await harness.clock.advanceTo('2025-06-06T08:00:01Z');
    expect(harness.calls.map((call) => call.id).sort()).toEqual(['tick']);
    await harness.clock.advanceTo('2025-06-06T08:00:02Z');
    // tick is still running, so only tock starts at :02.
    expect(starts()).toBe(2);

    let drained = false;
    const draining = harness.scheduler.drain().then(() => {
      drained = true;
    });
    await harness.clock.advanceTo('2025-06-06T08:00:09Z');
    expect(starts()).toBe(2);
    expect(drained).toBe(false);

    gate.resolve();
    await draining;
    expect(harness.deliveries.map((delivery) => delivery.result.text).sort()).toEqual([
      'done tick',
      'done tock',
    ]);
    // tick's :02 was skipped while its :01 run went on; nothing was planned once draining began.
    expect((await harness.runs()).map((run) => `${run.id} ${run.due.slice(17, 19)} ${run.outcome}`)).toEqual([
      'tick 02 skipped',
      'tick 01 ok',
      'tock 02 ok',
    ]);
    expect(starts()).toBe(2);
    await harness.scheduler.stop();
    expect(starts()).toBe(2);
  });

  it('resolves when its signal aborts while a run goes on, and stop() then aborts that run', async () => {
    harness = await createHarness(EVERY_SECOND, '2025-06-06T08:00:00.500Z', {
      task: (_schedule, signal) =>
        new Promise((_resolve, reject) => signal.addEventListener('abort', () => reject(signal.reason))),
    });
    await harness.scheduler.start();
    await harness.clock.advanceTo('2025-06-06T08:00:01Z');
    expect(harness.calls).toHaveLength(1);
    const grace = new AbortController();
    const draining = harness.scheduler.drain({ signal: grace.signal });
    grace.abort();
    await draining;
    expect(harness.calls[0]?.signal.aborted).toBe(false);
    await harness.scheduler.stop();
    expect(harness.calls[0]?.signal.aborted).toBe(true);
    expect(harness.calls).toHaveLength(1);
  });

  it('refuses a run now while draining', async () => {
    harness = await createHarness([{ id: 'later', cron: '0 9 * * *', task: 'x' }], '2025-06-06T08:00:00Z');
    await harness.scheduler.start();
    await harness.scheduler.drain();
    await expect(harness.scheduler.runNow('later')).rejects.toMatchObject({ code: 'SCHEDULER_STOPPED' });
    expect(harness.calls).toEqual([]);
  });

  it('fires again after stop() and start()', async () => {
    harness = await createHarness(EVERY_SECOND, '2025-06-06T08:00:00.500Z');
    await harness.scheduler.start();
    await harness.scheduler.drain();
    await harness.scheduler.stop();
    await harness.scheduler.start();
    await harness.clock.advanceTo('2025-06-06T08:00:01Z');
    expect(harness.calls.map((call) => call.id)).toEqual(['tick']);
  });
});
