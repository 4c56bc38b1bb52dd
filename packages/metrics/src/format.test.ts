import { describe, expect, it } from 'vitest';
import { makeSnapshot } from '../test/support/snapshot.js';
import { formatBytes, formatRate, formatSummaryLine } from './format.js';

describe('formatSummaryLine', () => {
  it('puts CPU, load, memory, the fullest disk and network on one line', () => {
    expect(formatSummaryLine(makeSnapshot())).toBe(
      'CPU 12% · load 0.4 · mem 5.1/23.4 GiB · disk / 22% · net ↓1.2 MB/s ↑40 kB/s',
    );
  });

  it('leaves out what the platform does not report', () => {
    const snapshot = makeSnapshot();
    const line = formatSummaryLine({
      ...snapshot,
      cpu: { ...snapshot.cpu, usagePercent: null, loadAverage: null },
      network: null,
    });
    expect(line).toBe('mem 5.1/23.4 GiB · disk / 22%');
  });

  it('adds temperature and battery when the machine has them', () => {
    const line = formatSummaryLine(
      makeSnapshot({
        temperatures: { cpuCelsius: 64.6, maxCelsius: 70, sensors: [] },
        battery: { percent: 80, charging: true, acConnected: true, timeRemainingMinutes: null },
      }),
    );
    expect(line.endsWith('· 65°C · battery 80% charging')).toBe(true);
  });

  it('says so when there is no sample yet', () => {
    expect(formatSummaryLine(null)).toBe('metrics: no sample yet');
  });
});

describe('formatBytes and formatRate', () => {
  it('shows sizes in binary units and rates in decimal ones', () => {
    expect(formatBytes(512)).toBe('512 B');
    expect(formatBytes(5.1 * 1024 ** 3)).toBe('5.1 GiB');
    expect(formatRate(999)).toBe('999 B/s');
    expect(formatRate(40_000)).toBe('40 kB/s');
    expect(formatRate(1_234_567)).toBe('1.2 MB/s');
  });
});
