import { describe, expect, it } from 'vitest';
import { createMetricsHistory, HISTORY_FIELDS, HISTORY_RESOLUTIONS, type HistoryField } from './history.js';

const start = Date.UTC(2026, 0, 1); // on an hour boundary

function values(
  cpuPercent: number | null,
  memoryPercent: number | null = 50,
): Record<HistoryField, number | null> {
  const all = Object.fromEntries(HISTORY_FIELDS.map((field) => [field, null])) as Record<
    HistoryField,
    number | null
  >;
  return { ...all, cpuPercent, memoryPercent };
}

describe('createMetricsHistory', () => {
  it('keeps each sample at one-second resolution', () => {
    const history = createMetricsHistory();
    history.add(start, values(10));
    history.add(start + 2000, values(30));
    expect(history.points('1s').map((point) => [point.time, point.cpuPercent])).toEqual([
      [start, 10],
      [start + 2000, 30],
    ]);
  });

  it('averages samples that fall in the same second', () => {
    const history = createMetricsHistory();
    history.add(start + 100, values(10));
    history.add(start + 900, values(30));
    expect(history.points('1s')).toMatchObject([{ time: start, samples: 2, cpuPercent: 20 }]);
  });

  it('rolls a completed minute up into its mean', () => {
    const history = createMetricsHistory();
    for (let second = 0; second < 60; second += 2)
      history.add(start + second * 1000, values(second < 30 ? 10 : 50));
    history.add(start + 60_000, values(99)); // the first sample of the next minute closes the first
    const [first, current] = history.points('1m');
    expect(first).toMatchObject({ time: start, samples: 30, cpuPercent: 30, memoryPercent: 50 });
    expect(current).toMatchObject({ time: start + 60_000, samples: 1, cpuPercent: 99 });
  });

  it('weights five-minute means by how many samples each minute had', () => {
    const history = createMetricsHistory();
    // Minute 0: three samples at 10%; minute 1: one sample at 50%.
    for (const second of [0, 20, 40]) history.add(start + second * 1000, values(10));
    history.add(start + 60_000, values(50));
    history.add(start + 300_000, values(0)); // closes minute 1 and the first five minutes
    const [firstFive] = history.points('5m');
    expect(firstFive).toMatchObject({ time: start, samples: 4, cpuPercent: 20 });
  });

  it('rolls five-minute buckets up into hours', () => {
    const history = createMetricsHistory();
    for (let minute = 0; minute <= 60; minute++)
      history.add(start + minute * 60_000, values(minute < 60 ? 40 : 0));
    history.add(start + 2 * 3_600_000, values(0)); // closes the last five minutes of the hour, then the hour
    const [hour] = history.points('1h');
    expect(hour).toMatchObject({ time: start, samples: 60, cpuPercent: 40 });
  });

  it('averages a field over the samples that had it and reports null when none did', () => {
    const history = createMetricsHistory();
    history.add(start, values(null));
    history.add(start + 30_000, values(60));
    history.add(start + 60_000, values(null));
    const [minute] = history.points('1m');
    expect(minute).toMatchObject({ samples: 2, cpuPercent: 60, temperatureCelsius: null });
  });

  it('holds a constant number of points at every resolution however long it runs', () => {
    const history = createMetricsHistory();
    // Eight days of a sample every 5 s.
    const sample = values(25);
    for (let time = start; time < start + 8 * 86_400_000; time += 5000) history.add(time, sample);
    for (const [resolution, { capacity }] of Object.entries(HISTORY_RESOLUTIONS)) {
      expect(history.points(resolution as keyof typeof HISTORY_RESOLUTIONS)).toHaveLength(capacity);
    }
  });

  it('refuses an unknown resolution in one sentence', () => {
    expect(() => createMetricsHistory().points('2m' as '1m')).toThrow('Unknown history resolution "2m"');
  });
});
