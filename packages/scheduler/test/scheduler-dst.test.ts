import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createHarness, type Harness } from './harness.js';

let harness: Harness;
afterEach(() => harness.cleanup());

const newYork = 'America/New_York';
const firedAt = () => harness.calls.map((call) => call.at);

describe('daylight saving time, through the scheduler', () => {
  it('runs a job whose time is skipped in spring once, after the jump, and at its usual time the next day', async () => {
    harness = await createHarness(
      [{ id: 'night', cron: '30 2 * * *', task: 'x', timezone: newYork }],
      '2025-03-08T12:00:00Z',
    );
    await harness.scheduler.start();
    await harness.clock.advanceTo('2025-03-10T12:00:00Z');
    expect(firedAt()).toEqual(['2025-03-09T07:30:00.000Z', '2025-03-10T06:30:00.000Z']);
  });

  it('runs a job in the repeated autumn hour once, even when restarted inside that hour', async () => {
    harness = await createHarness(
      [{ id: 'night', cron: '30 1 * * *', task: 'x', timezone: newYork }],
      '2025-11-01T12:00:00Z',
    );
    await harness.scheduler.start();
    await harness.clock.advanceTo('2025-11-02T06:10:00Z'); // 01:10 EST, second pass of the hour
    await harness.scheduler.stop();
    await harness.restart().start();
    await harness.clock.advanceTo('2025-11-03T12:00:00Z');
    expect(firedAt()).toEqual(['2025-11-02T05:30:00.000Z', '2025-11-03T06:30:00.000Z']);
  });

  it('does not run a fixed-time job when it is first seen inside the repeated hour after its first pass', async () => {
    harness = await createHarness(
      [{ id: 'night', cron: '30 1 * * *', task: 'x', timezone: newYork }],
      '2025-11-02T06:10:00Z',
    );
    await harness.scheduler.start();
    await harness.clock.advanceTo('2025-11-02T12:00:00Z');
    expect(firedAt()).toEqual([]);
  });

  it('runs an hourly job 25 times on the autumn day and 23 times on the spring day', async () => {
    harness = await createHarness(
      [{ id: 'hourly', cron: '0 * * * *', task: 'x', timezone: newYork }],
      '2025-11-02T03:59:00Z',
    );
    await harness.scheduler.start();
    await harness.clock.advanceTo('2025-11-03T04:59:59Z'); // local midnight to midnight, EDT to EST
    expect(harness.calls).toHaveLength(25);
    await harness.scheduler.stop();

    harness.calls.length = 0;
    await harness.clock.advanceTo('2026-03-08T04:59:59Z');
    await harness.restart().start();
    await harness.clock.advanceTo('2026-03-09T03:59:59Z'); // local midnight to midnight, EST to EDT
    expect(harness.calls).toHaveLength(23);
  });

  it('fires a 6-field job with seconds on the second', async () => {
    harness = await createHarness(
      [{ id: 'fast', cron: '*/15 * * * * *', task: 'x' }],
      '2025-06-06T08:00:01Z',
    );
    await harness.scheduler.start();
    await harness.clock.advanceTo('2025-06-06T08:01:00Z');
    expect(firedAt()).toEqual([
      '2025-06-06T08:00:15.000Z',
      '2025-06-06T08:00:30.000Z',
      '2025-06-06T08:00:45.000Z',
      '2025-06-06T08:01:00.000Z',
    ]);
  });
});

describe('schedules without a time zone run in local time', () => {
  const original = process.env.TZ;
  beforeAll(() => {
    process.env.TZ = 'Europe/Berlin';
  });
  afterAll(() => {
    if (original === undefined) delete process.env.TZ;
    else process.env.TZ = original;
  });

  it('reads cron and at in the system zone when neither the entry nor the scheduler names one', async () => {
    harness = await createHarness(
      [
        { id: 'cron', cron: '0 9 * * *', task: 'x' },
        { id: 'at', at: '2025-03-30T09:30', task: 'y' },
      ],
      '2025-03-29T00:00:00Z',
      { timezone: undefined },
    );
    await harness.scheduler.start();
    await harness.clock.advanceTo('2025-03-31T00:00:00Z');
    // 09:00 CET on the 29th, then 09:00 CEST after the change on the 30th.
    expect(firedAt()).toEqual([
      '2025-03-29T08:00:00.000Z',
      '2025-03-30T07:00:00.000Z',
      '2025-03-30T07:30:00.000Z',
    ]);
  });
});
