import { rm, writeFile } from 'node:fs/promises';
import { afterEach, describe, expect, it } from 'vitest';
import type { SchedulerEvent } from '../src/scheduler-types.js';
import { createHarness, type Harness } from './harness.js';
import { deferred, writeSchedules } from './helpers.js';

let harness: Harness;
afterEach(() => harness.cleanup());

/** Resolves on the next `schedules-reloaded` event at or after call time. */
function nextReload(): Promise<Extract<SchedulerEvent, { type: 'schedules-reloaded' }>> {
  const seen = harness.events.length;
  return new Promise((resolve) => {
    const check = () => {
      const event = harness.events.slice(seen).find((candidate) => candidate.type === 'schedules-reloaded');
      if (event?.type === 'schedules-reloaded') resolve(event);
      else setImmediate(check);
    };
    check();
  });
}

describe('reloading schedules.json', () => {
  it('keeps the last good schedules running when the file becomes half-written, and reports it', async () => {
    harness = await createHarness([{ id: 'hourly', cron: '0 * * * *', task: 'x' }], '2025-06-06T08:30:00Z');
    await harness.scheduler.start();
    await writeFile(harness.file, '{"schedules": [{"id": "hourly", "cron": "0 * * ');
    await harness.scheduler.reload();
    expect(harness.scheduler.errors()).toEqual([
      expect.stringMatching(/^The schedules file is not valid JSON/),
    ]);
    expect(harness.errors.at(-1)?.message).toMatch(/Keeping the last good schedules\.$/);
    expect(harness.events.at(-1)).toMatchObject({
      type: 'schedules-reloaded',
      keptPrevious: true,
      schedules: 1,
    });
    await harness.clock.advanceTo('2025-06-06T09:00:00Z');
    expect(harness.calls).toHaveLength(1);
  });

  it('runs the valid entries of a file with bad ones, reporting each bad one', async () => {
    harness = await createHarness(
      [
        { id: 'good', cron: '0 9 * * *', task: 'x' },
        { id: 'bad', cron: '0 25 * * *', task: 'x' },
      ],
      '2025-06-06T08:30:00Z',
    );
    await harness.scheduler.start();
    expect(harness.errors.map((error) => error.message)).toEqual([
      expect.stringMatching(/^Schedule "bad": "cron"/),
    ]);
    await harness.clock.advanceTo('2025-06-06T09:00:00Z');
    expect(harness.calls.map((call) => call.id)).toEqual(['good']);
  });

  it('picks up an edit through the file watcher without disturbing a running task', async () => {
    const slow = deferred<string>();
    harness = await createHarness(
      [{ id: 'slow', at: '2025-06-06T09:00:00Z', task: 'x' }],
      '2025-06-06T08:59:00Z',
      {
        watch: true,
        task: (schedule) => (schedule.id === 'slow' ? slow.promise : Promise.resolve('quick')),
      },
    );
    await harness.scheduler.start();
    await harness.clock.advanceTo('2025-06-06T09:00:00Z');
    expect(harness.calls.map((call) => call.id)).toEqual(['slow']);

    const reloaded = nextReload();
    await writeSchedules(harness.file, [
      { id: 'slow', at: '2025-06-06T09:00:00Z', task: 'x' },
      { id: 'added', at: '2025-06-06T09:05:00Z', task: 'y' },
    ]);
    expect(await reloaded).toMatchObject({ schedules: 2, keptPrevious: false });
    expect(harness.calls[0]?.signal.aborted).toBe(false);

    await harness.clock.advanceTo('2025-06-06T09:05:00Z');
    expect(harness.calls.map((call) => call.id)).toEqual(['slow', 'added']);
    slow.resolve('finally');
    await harness.scheduler.whenIdle();
    expect(harness.deliveries.map((delivery) => delivery.result.text).sort()).toEqual(['finally', 'quick']);
  });

  it('finds a change by the periodic check when the watcher is off', async () => {
    harness = await createHarness([], '2025-06-06T08:00:00Z', { reloadIntervalMs: 5_000 });
    await harness.scheduler.start();
    await writeSchedules(harness.file, [{ id: 'new', at: '2025-06-06T08:00:30Z', task: 'x' }]);
    await harness.clock.advanceTo('2025-06-06T08:00:04Z');
    expect(harness.scheduler.list()).toEqual([]);
    await harness.clock.advanceTo('2025-06-06T08:00:05Z');
    expect(harness.scheduler.list().map((status) => status.schedule.id)).toEqual(['new']);
    await harness.clock.advanceTo('2025-06-06T08:00:30Z');
    expect(harness.calls.map((call) => call.id)).toEqual(['new']);
  });

  it('treats a missing file as no schedules and starts using it once it appears', async () => {
    harness = await createHarness([], '2025-06-06T08:00:00Z');
    await rm(harness.file);
    await harness.scheduler.start();
    expect(harness.scheduler.errors()).toEqual([]);
    await writeSchedules(harness.file, [{ id: 'late', at: '2025-06-06T08:10:00Z', task: 'x' }]);
    await harness.scheduler.reload();
    await harness.clock.advanceTo('2025-06-06T08:10:00Z');
    expect(harness.calls.map((call) => call.id)).toEqual(['late']);
  });

  it('keeps a done one-shot done when only its task text is edited, and runs it anew when its time changes', async () => {
    harness = await createHarness(
      [{ id: 'once', at: '2025-06-06T09:00:00Z', task: 'x' }],
      '2025-06-06T08:59:00Z',
    );
    await harness.scheduler.start();
    await harness.clock.advanceTo('2025-06-06T09:00:00Z');
    await writeSchedules(harness.file, [{ id: 'once', at: '2025-06-06T09:00:00Z', task: 'reworded' }]);
    await harness.scheduler.reload();
    await harness.clock.advanceTo('2025-06-06T09:10:00Z');
    expect(harness.calls).toHaveLength(1);
    await writeSchedules(harness.file, [{ id: 'once', at: '2025-06-06T09:30:00Z', task: 'reworded' }]);
    await harness.scheduler.reload();
    await harness.clock.advanceTo('2025-06-06T09:30:00Z');
    expect(harness.calls.map((call) => call.at)).toEqual([
      '2025-06-06T09:00:00.000Z',
      '2025-06-06T09:30:00.000Z',
    ]);
  });
});
