import { describe, expect, it } from 'vitest';
import { formatDuration } from './format-duration.js';

describe('formatDuration', () => {
  it('shows whole milliseconds below a second', () => {
    expect(formatDuration(0)).toBe('0 ms');
    expect(formatDuration(850.4)).toBe('850 ms');
  });

  it('shows seconds with at most one decimal', () => {
    expect(formatDuration(1_000)).toBe('1 s');
    expect(formatDuration(1_540)).toBe('1.5 s');
    expect(formatDuration(15_000)).toBe('15 s');
  });

  it('moves to the next unit when rounding reaches it', () => {
    expect(formatDuration(999.7)).toBe('1 s');
    expect(formatDuration(59_960)).toBe('1 min');
  });

  it('shows minutes, hours and days', () => {
    expect(formatDuration(90_000)).toBe('1.5 min');
    expect(formatDuration(300_000)).toBe('5 min');
    expect(formatDuration(3 * 3_600_000)).toBe('3 h');
    expect(formatDuration(3 * 86_400_000)).toBe('3 days');
  });

  it('reads negative or non-finite input as zero', () => {
    expect(formatDuration(-5)).toBe('0 ms');
    expect(formatDuration(Number.NaN)).toBe('0 ms');
  });
});
