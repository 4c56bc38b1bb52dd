import { describe, expect, it } from 'vitest';
import { clockLabel, dayLabel, timeAxisFor } from './time-axis.js';

const at = (...parts: [number, number, number, number?, number?, number?]) =>
  new Date(...parts).getTime() / 1000;

describe('the history time axis', () => {
  it('labels minutes and hours as a 24-hour clock without seconds', () => {
    expect(clockLabel(at(2026, 10, 24, 16, 5, 47.5))).toBe('16:05');
    expect(clockLabel(at(2026, 10, 24, 0, 0))).toBe('00:00');
  });

  it('labels days with the weekday and the day of the month', () => {
    expect(dayLabel(at(2026, 10, 24))).toMatch(/^[A-Za-z]{2,4}\.? 24$/);
  });

  it('spans the collector range of each resolution and steps in whole units', () => {
    const spans = (['1s', '1m', '5m', '1h'] as const).map(
      (resolution) => timeAxisFor(resolution).windowSeconds,
    );
    expect(spans).toEqual([300, 3600, 21_600, 604_800]);
    for (const resolution of ['1s', '1m', '5m'] as const)
      for (const step of timeAxisFor(resolution).incrs) expect(step % 60).toBe(0);
    for (const step of timeAxisFor('1h').incrs) expect(step % 86_400).toBe(0);
  });
});
