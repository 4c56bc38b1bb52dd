import { describe, expect, it } from 'vitest';
import { nextRunTimes } from './next-run-times.js';

const iso = (dates: Date[]) => dates.map((date) => date.toISOString());

describe('nextRunTimes', () => {
  it("lists the next cron times in the schedule's own zone", () => {
    const times = nextRunTimes(
      { id: 'a', task: 'x', cron: '0 9 * * *', timezone: 'Asia/Tokyo' },
      2,
      new Date('2025-06-06T00:00:00Z'),
    );
    // 09:00 in Tokyo is 00:00Z; the start itself is excluded.
    expect(iso(times)).toEqual(['2025-06-07T00:00:00.000Z', '2025-06-08T00:00:00.000Z']);
  });

  it('uses the default zone for a schedule without one', () => {
    const times = nextRunTimes(
      { id: 'a', task: 'x', cron: '0 9 * * *' },
      1,
      new Date('2025-01-06T00:00:00Z'),
      {
        timezone: 'America/New_York',
      },
    );
    expect(iso(times)).toEqual(['2025-01-06T14:00:00.000Z']);
  });

  it('gives a future one-shot its single time', () => {
    const times = nextRunTimes(
      { id: 'a', task: 'x', at: '2025-06-07T10:00' },
      5,
      new Date('2025-06-06T00:00:00Z'),
      {
        timezone: 'UTC',
      },
    );
    expect(iso(times)).toEqual(['2025-06-07T10:00:00.000Z']);
  });

  it('gives a past one-shot no time', () => {
    expect(
      nextRunTimes({ id: 'a', task: 'x', at: '2025-06-05T10:00Z' }, 5, new Date('2025-06-06T00:00:00Z')),
    ).toEqual([]);
  });

  it('throws SCHEDULE_INVALID for a schedule that would not have passed validation', () => {
    expect(() => nextRunTimes({ id: 'a', task: 'x', cron: 'not cron' }, 1)).toThrow(
      expect.objectContaining({ code: 'SCHEDULE_INVALID' }),
    );
  });
});
