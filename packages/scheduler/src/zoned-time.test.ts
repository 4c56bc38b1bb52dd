import { describe, expect, it } from 'vitest';
import { formatInZone, isValidTimezone, parseAtTime, toLocalIso } from './zoned-time.js';

const newYork = 'America/New_York';

function instant(value: string, zone?: string): string {
  const parsed = parseAtTime(value, zone);
  if (!parsed.ok) throw new Error(parsed.reason);
  return new Date(parsed.ms).toISOString();
}

describe('parseAtTime', () => {
  it('reads a date-time without offset as wall-clock time in the given zone', () => {
    expect(instant('2025-06-01T09:00', 'Europe/Berlin')).toBe('2025-06-01T07:00:00.000Z');
    expect(instant('2025-01-15T09:00:00', 'Europe/Berlin')).toBe('2025-01-15T08:00:00.000Z');
  });

  it('takes an explicit offset or Z as the instant, whatever the zone', () => {
    expect(instant('2025-06-01T09:00:00+05:30', 'Europe/Berlin')).toBe('2025-06-01T03:30:00.000Z');
    expect(instant('2025-06-01T09:00:00Z', newYork)).toBe('2025-06-01T09:00:00.000Z');
  });

  it('accepts a space between date and time and fractions of a second', () => {
    expect(instant('2025-06-01 09:00:05.250', 'UTC')).toBe('2025-06-01T09:00:05.250Z');
  });

  it('moves a time skipped by the spring DST change forward by the gap', () => {
    // 02:30 does not exist in New York on 2025-03-09; clocks jump from 02:00 EST to 03:00 EDT.
    expect(instant('2025-03-09T02:30', newYork)).toBe('2025-03-09T07:30:00.000Z');
  });

  it('picks the first of the two instants of a time repeated by the autumn DST change', () => {
    // 01:30 happens at 05:30Z (EDT) and again at 06:30Z (EST) on 2025-11-02.
    expect(instant('2025-11-02T01:30', newYork)).toBe('2025-11-02T05:30:00.000Z');
    expect(instant('2025-10-26T02:30', 'Europe/Berlin')).toBe('2025-10-26T00:30:00.000Z');
  });

  it('refuses a date without a time, with a reason', () => {
    const parsed = parseAtTime('2025-06-01', 'UTC');
    expect(parsed).toEqual({ ok: false, reason: expect.stringContaining('a date alone is not enough') });
  });

  it('refuses a date that does not exist, saying which part is wrong', () => {
    const parsed = parseAtTime('2025-02-30T10:00', 'UTC');
    expect(parsed.ok).toBe(false);
    expect(parsed.ok ? '' : parsed.reason).toMatch(/not a real date-time.*30.*day/);
  });
});

describe('time zone helpers', () => {
  it('knows IANA zones and refuses made-up ones', () => {
    expect(isValidTimezone('Europe/Berlin')).toBe(true);
    expect(isValidTimezone('UTC')).toBe(true);
    expect(isValidTimezone('Mars/Olympus')).toBe(false);
    expect(isValidTimezone('')).toBe(false);
  });

  it('formats an instant as wall-clock time with offset and weekday', () => {
    expect(formatInZone(Date.parse('2025-06-02T07:00:00Z'), 'Europe/Berlin')).toBe(
      '2025-06-02 09:00 (+02:00 Mon)',
    );
  });

  it('writes a local ISO date-time without offset', () => {
    expect(toLocalIso(Date.parse('2025-06-02T07:00:00Z'), 'Europe/Berlin')).toBe('2025-06-02T09:00:00');
  });
});
