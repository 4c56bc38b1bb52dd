import { readdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createHarness, type Harness } from './harness.js';

let harness: Harness;
afterEach(() => harness.cleanup());

const state = () => readFile(join(harness.folder, 'scheduler-state.json'), 'utf8').then(JSON.parse);

describe('exactly once across restarts', () => {
  it('never fires a one-shot again after a restart, and leaves the schedules file alone', async () => {
    harness = await createHarness(
      [{ id: 'once', at: '2025-06-06T09:00:00', task: 'x' }],
      '2025-06-06T08:00:00Z',
    );
    const before = await readFile(harness.file, 'utf8');
    await harness.scheduler.start();
    await harness.clock.advanceTo('2025-06-06T09:00:00Z');
    expect(harness.calls).toHaveLength(1);
    await harness.scheduler.stop();

    await harness.restart().start();
    await harness.clock.advanceTo('2025-06-06T09:30:00Z');
    await harness.scheduler.stop();
    await harness.restart().start();
    await harness.clock.advanceTo('2025-06-08T00:00:00Z');
    expect(harness.calls).toHaveLength(1);
    expect((await state()).schedules.once).toMatchObject({ done: true, lastRun: { outcome: 'ok' } });
    expect(await readFile(harness.file, 'utf8')).toBe(before);
  });

  it('runs a one-shot that came due while the process was down once on start, if less than an hour late', async () => {
    harness = await createHarness(
      [{ id: 'once', at: '2025-06-06T09:00:00Z', task: 'x' }],
      '2025-06-06T08:00:00Z',
    );
    await harness.scheduler.start();
    await harness.clock.advanceTo('2025-06-06T08:30:00Z');
    await harness.scheduler.stop();
    await harness.clock.advanceTo('2025-06-06T09:50:00Z'); // down at the due time

    await harness.restart().start();
    expect(harness.calls.map((call) => call.at)).toEqual(['2025-06-06T09:50:00.000Z']);
    await harness.scheduler.stop();
    await harness.restart().start();
    expect(harness.calls).toHaveLength(1);
  });

  it('does not run a one-shot more than an hour late, and logs it as missed', async () => {
    harness = await createHarness(
      [{ id: 'once', at: '2025-06-06T09:00:00Z', task: 'x' }],
      '2025-06-06T10:00:01Z',
    );
    await harness.scheduler.start();
    expect(harness.calls).toEqual([]);
    expect(await harness.runs()).toEqual([
      {
        id: 'once',
        due: '2025-06-06T09:00:00.000Z',
        start: '2025-06-06T10:00:01.000Z',
        durationMs: 0,
        outcome: 'missed',
        missed: 1,
        firstMissed: '2025-06-06T09:00:00.000Z',
      },
    ]);
    expect(harness.events).toContainEqual(expect.objectContaining({ type: 'runs-missed', id: 'once' }));
    expect((await state()).schedules.once.done).toBe(true);
  });

  it('honours a custom grace for missed one-shots', async () => {
    harness = await createHarness(
      [{ id: 'once', at: '2025-06-06T09:00:00Z', task: 'x' }],
      '2025-06-06T09:05:00Z',
      {
        missedOneShotGraceMs: 60_000,
      },
    );
    await harness.scheduler.start();
    expect(harness.calls).toEqual([]);
  });

  it('skips cron runs missed while down, logs how many, and fires the next one on time', async () => {
    harness = await createHarness([{ id: 'hourly', cron: '0 * * * *', task: 'x' }], '2025-06-06T08:30:00Z');
    await harness.scheduler.start();
    await harness.clock.advanceTo('2025-06-06T09:00:00Z');
    await harness.scheduler.stop();
    await harness.clock.advanceTo('2025-06-06T14:20:00Z');

    await harness.restart().start();
    expect(harness.calls.map((call) => call.at)).toEqual(['2025-06-06T09:00:00.000Z']);
    const missed = (await harness.runs()).find((run) => run.outcome === 'missed');
    expect(missed).toMatchObject({
      missed: 5,
      firstMissed: '2025-06-06T10:00:00.000Z',
      due: '2025-06-06T14:00:00.000Z',
    });
    await harness.clock.advanceTo('2025-06-06T15:00:00Z');
    expect(harness.calls.map((call) => call.at)).toEqual([
      '2025-06-06T09:00:00.000Z',
      '2025-06-06T15:00:00.000Z',
    ]);
  });

  it('runs the latest missed cron run once on start with missedCron "run-once"', async () => {
    harness = await createHarness([{ id: 'hourly', cron: '0 * * * *', task: 'x' }], '2025-06-06T08:30:00Z', {
      missedCron: 'run-once',
    });
    await harness.scheduler.start();
    await harness.clock.advanceTo('2025-06-06T09:00:00Z');
    await harness.scheduler.stop();
    await harness.clock.advanceTo('2025-06-06T14:20:00Z');
    await harness.restart().start();
    expect(harness.calls.map((call) => call.at)).toEqual([
      '2025-06-06T09:00:00.000Z',
      '2025-06-06T14:20:00.000Z',
    ]);
  });

  it('fires a run restarted after its due time but within the cron grace', async () => {
    harness = await createHarness([{ id: 'hourly', cron: '0 * * * *', task: 'x' }], '2025-06-06T08:30:00Z');
    await harness.scheduler.start();
    await harness.clock.advanceTo('2025-06-06T08:59:59Z');
    await harness.scheduler.stop();
    await harness.clock.advanceTo('2025-06-06T09:00:30Z');
    await harness.restart().start();
    await harness.scheduler.whenIdle();
    expect(harness.calls.map((call) => call.at)).toEqual(['2025-06-06T09:00:30.000Z']);
    expect((await harness.runs())[0]).toMatchObject({ due: '2025-06-06T09:00:00.000Z', outcome: 'ok' });
  });

  it('moves an unreadable state file aside and does not re-run a past one-shot it cannot vouch for', async () => {
    harness = await createHarness(
      [{ id: 'once', at: '2025-06-06T09:00:00Z', task: 'x' }],
      '2025-06-06T09:10:00Z',
    );
    await writeFile(join(harness.folder, 'scheduler-state.json'), '{"version": 1, "schedu');
    await harness.scheduler.start();
    expect(harness.calls).toEqual([]);
    expect(harness.errors.map((error) => error.code)).toContain('STATE_RECOVERED');
    expect(
      (await readdir(harness.folder)).some((name) => name.startsWith('scheduler-state.json.corrupt-')),
    ).toBe(true);
    expect((await state()).schedules.once.done).toBe(true);
  });
});
