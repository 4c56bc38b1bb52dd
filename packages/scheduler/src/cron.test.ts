import { describe, expect, it } from 'vitest';
import { checkCronExpression, cronWindow, nextCronTimes } from './cron.js';

const newYork = 'America/New_York';
const iso = (times: number[]) => times.map((ms) => new Date(ms).toISOString());
const at = (value: string) => Date.parse(value);

describe('checkCronExpression', () => {
  it('accepts 5 fields, 6 fields with seconds first, and macros', () => {
    expect(checkCronExpression('0 9 * * 1-5')).toBeUndefined();
    expect(checkCronExpression('*/10 0 9 * * MON-FRI')).toBeUndefined();
    expect(checkCronExpression('@daily')).toBeUndefined();
  });

  it('says how many fields it found when there are too few or too many', () => {
    expect(checkCronExpression('* * *')).toBe(
      'has 3 fields; use 5 (minute hour day month weekday) or 6 (seconds first)',
    );
    expect(checkCronExpression('0 0 0 1 1 * 2026')).toMatch(/^has 7 fields/);
  });

  it('names the value that is out of range', () => {
    expect(checkCronExpression('61 * * * *')).toMatch(/invalid: .*61.*0-59/);
  });

  it('refuses a date that never exists', () => {
    expect(checkCronExpression('0 0 30 2 *')).toMatch(/invalid/);
  });
});

describe('nextCronTimes', () => {
  it('computes a 5-field expression in the given zone', () => {
    expect(iso(nextCronTimes('0 9 * * 1-5', 'Europe/Berlin', at('2025-06-06T12:00:00Z'), 2))).toEqual([
      '2025-06-09T07:00:00.000Z', // Monday 09:00 CEST
      '2025-06-10T07:00:00.000Z',
    ]);
  });

  it('computes a 6-field expression with seconds first', () => {
    expect(iso(nextCronTimes('*/20 0 9 * * *', 'UTC', at('2025-06-06T09:00:00Z'), 3))).toEqual([
      '2025-06-06T09:00:20.000Z',
      '2025-06-06T09:00:40.000Z',
      '2025-06-07T09:00:00.000Z',
    ]);
  });

  it('is strictly after the start time', () => {
    expect(iso(nextCronTimes('0 9 * * *', 'UTC', at('2025-06-06T09:00:00Z'), 1))).toEqual([
      '2025-06-07T09:00:00.000Z',
    ]);
  });

  it('runs a job in the skipped spring hour once, right after the jump', () => {
    expect(iso(nextCronTimes('30 2 * * *', newYork, at('2025-03-08T12:00:00Z'), 3))).toEqual([
      '2025-03-09T07:30:00.000Z', // 03:30 EDT: 02:30 does not exist that night
      '2025-03-10T06:30:00.000Z',
      '2025-03-11T06:30:00.000Z',
    ]);
  });

  it('still finds the shifted spring run when started just after the jump', () => {
    // 03:10 EDT: the shifted 02:30 run (03:30 EDT) is still ahead.
    expect(iso(nextCronTimes('30 2 * * *', newYork, at('2025-03-09T07:10:00Z'), 1))).toEqual([
      '2025-03-09T07:30:00.000Z',
    ]);
  });

  it('runs a fixed-time job in the repeated autumn hour once, in its first pass', () => {
    expect(iso(nextCronTimes('30 1 * * *', newYork, at('2025-11-01T12:00:00Z'), 2))).toEqual([
      '2025-11-02T05:30:00.000Z', // 01:30 EDT; not again at 01:30 EST
      '2025-11-03T06:30:00.000Z',
    ]);
  });

  it('does not run a fixed-time job again when started inside the repeated hour', () => {
    // 01:10 EST is the second pass; 01:30 already happened (EDT) an hour ago.
    expect(iso(nextCronTimes('30 1 * * *', newYork, at('2025-11-02T06:10:00Z'), 1))).toEqual([
      '2025-11-03T06:30:00.000Z',
    ]);
  });

  it('runs an hourly job every real hour through the autumn change', () => {
    expect(iso(nextCronTimes('0 * * * *', newYork, at('2025-11-02T04:30:00Z'), 3))).toEqual([
      '2025-11-02T05:00:00.000Z', // 01:00 EDT
      '2025-11-02T06:00:00.000Z', // 01:00 EST
      '2025-11-02T07:00:00.000Z', // 02:00 EST
    ]);
  });

  it('handles the European changes the same way', () => {
    expect(iso(nextCronTimes('30 2 * * *', 'Europe/Berlin', at('2025-03-29T23:00:00Z'), 1))).toEqual([
      '2025-03-30T01:30:00.000Z', // 03:30 CEST
    ]);
    expect(iso(nextCronTimes('30 2 * * *', 'Europe/Berlin', at('2025-10-25T23:00:00Z'), 2))).toEqual([
      '2025-10-26T00:30:00.000Z', // 02:30 CEST, first pass
      '2025-10-27T01:30:00.000Z',
    ]);
  });
});

describe('cronWindow', () => {
  it('counts occurrences in an interval and names the first, the latest and the one before', () => {
    const window = cronWindow(
      '0 * * * *',
      'UTC',
      at('2025-06-06T00:30:00Z'),
      at('2025-06-06T05:00:00Z'),
      100,
    );
    expect(window.count).toBe(5);
    expect(window.truncated).toBe(false);
    expect(iso([window.first ?? 0, window.beforeLatest ?? 0, window.latest ?? 0])).toEqual([
      '2025-06-06T01:00:00.000Z',
      '2025-06-06T04:00:00.000Z',
      '2025-06-06T05:00:00.000Z',
    ]);
  });

  it('stops counting at the limit but still finds the latest occurrence', () => {
    const window = cronWindow(
      '* * * * * *',
      'UTC',
      at('2025-06-01T00:00:00Z'),
      at('2025-06-06T12:00:00Z'),
      50,
    );
    expect(window).toMatchObject({ count: 50, truncated: true });
    expect(iso([window.beforeLatest ?? 0, window.latest ?? 0])).toEqual([
      '2025-06-06T11:59:59.000Z',
      '2025-06-06T12:00:00.000Z',
    ]);
  });

  it('is empty when nothing falls in the interval', () => {
    expect(
      cronWindow('0 9 * * *', 'UTC', at('2025-06-06T09:00:00Z'), at('2025-06-07T08:59:59Z'), 10),
    ).toEqual({ count: 0, truncated: false, following: at('2025-06-07T09:00:00Z') });
  });
});
