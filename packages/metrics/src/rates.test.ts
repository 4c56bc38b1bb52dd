import { describe, expect, it } from 'vitest';
import { busyPercent, processCpuPercent, ratePerSecond, sumKnown } from './rates.js';

describe('ratePerSecond', () => {
  it('divides the counter difference by the elapsed seconds', () => {
    expect(ratePerSecond(1000, 11_000, 2000)).toBe(5000);
  });

  it('is null without an earlier reading, so the first sample reports no rate', () => {
    expect(ratePerSecond(undefined, 11_000, 2000)).toBeNull();
  });

  it('is null when the counter went backwards, so a reset is not a spike', () => {
    expect(ratePerSecond(11_000, 10, 2000)).toBeNull();
  });

  it('is null when no time has passed', () => {
    expect(ratePerSecond(1000, 2000, 0)).toBeNull();
  });
});

describe('busyPercent', () => {
  it('is the busy share of the ticks between two readings', () => {
    expect(busyPercent({ busy: 100, total: 1000 }, { busy: 150, total: 1200 })).toBe(25);
  });

  it('is null when no ticks passed rather than a zero', () => {
    expect(busyPercent({ busy: 100, total: 1000 }, { busy: 100, total: 1000 })).toBeNull();
  });
});

describe('processCpuPercent', () => {
  it('can exceed 100 for a process on several cores, as top shows it', () => {
    expect(processCpuPercent(1000, 4000, 2000)).toBe(150);
  });
});

describe('sumKnown', () => {
  it('adds the known values and is null when none is known', () => {
    expect(sumKnown([1, null, 2])).toBe(3);
    expect(sumKnown([null, null])).toBeNull();
  });
});
