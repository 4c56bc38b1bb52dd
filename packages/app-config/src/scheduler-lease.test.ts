import { describe, expect, it } from 'vitest';
import { parseSchedulerLease } from './scheduler-lease.js';

describe('SCHEDULER_LEASE_MS', () => {
  it('reads milliseconds from 1000 to 600000; unset is the default', () => {
    expect(parseSchedulerLease(undefined)).toEqual({});
    expect(parseSchedulerLease(' ')).toEqual({});
    expect(parseSchedulerLease('1000')).toEqual({ value: 1000 });
    expect(parseSchedulerLease('15_000')).toEqual({ value: 15_000 });
    expect(parseSchedulerLease('600000')).toEqual({ value: 600_000 });
  });

  it('turns a value out of bounds or not a number into one warning and the default', () => {
    for (const text of ['999', '600001', '15s', '-5000', '1.5e3', 'abc']) {
      const parsed = parseSchedulerLease(text);
      expect(parsed.value, text).toBeUndefined();
      expect(parsed.warning, text).toBe(
        `SCHEDULER_LEASE_MS="${text}" is not a lease length: use a whole number of milliseconds from 1000 to 600000 (15000 is 15 s); the default is used.`,
      );
    }
  });
});
