import { describe, expect, it } from 'vitest';
import { wallTimeIn } from './format.js';

describe('wallTimeIn', () => {
  it('keeps an at without offset as written', () => {
    expect(wallTimeIn('2027-03-01T09:30', 'Asia/Tokyo')).toBe('2027-03-01T09:30');
    expect(wallTimeIn('2027-03-01T09:30:15', 'UTC')).toBe('2027-03-01T09:30:15');
  });

  it('shows an at with an offset as the same instant in the schedule zone', () => {
    expect(wallTimeIn('2027-03-01T09:00:00+05:00', 'Europe/Berlin')).toBe('2027-03-01T05:00:00');
    expect(wallTimeIn('2027-07-01T23:30:00Z', 'Europe/Berlin')).toBe('2027-07-02T01:30:00');
    expect(wallTimeIn('2027-01-01T00:00:00-0800', 'UTC')).toBe('2027-01-01T08:00:00');
  });

  it('writes midnight as 00, not 24', () => {
    expect(wallTimeIn('2027-03-01T23:00:00Z', 'Europe/Berlin')).toBe('2027-03-02T00:00:00');
  });
});
