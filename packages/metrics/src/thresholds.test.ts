import { describe, expect, it } from 'vitest';
import { makeSnapshot } from '../test/support/snapshot.js';
import { METRICS_DEFAULTS } from './defaults.js';
import type { MetricsSnapshot } from './snapshot-types.js';
import { createThresholdMonitor } from './thresholds.js';

const rules = { ...METRICS_DEFAULTS.thresholds, cpu: { level: 90, hysteresis: 10 } };

function withCpu(usagePercent: number | null): MetricsSnapshot {
  const snapshot = makeSnapshot();
  return { ...snapshot, cpu: { ...snapshot.cpu, usagePercent } };
}

describe('createThresholdMonitor', () => {
  it('reports a crossing once when the value reaches the level', () => {
    const monitor = createThresholdMonitor(rules);
    expect(monitor.check(withCpu(95))).toMatchObject([
      { state: 'crossed', metric: 'cpu', value: 95, level: 90 },
    ]);
    expect(monitor.check(withCpu(97))).toEqual([]);
  });

  it('does not flap while the value hovers around the line', () => {
    const monitor = createThresholdMonitor(rules);
    const events = [91, 89, 90.5, 88, 92, 85].flatMap((value) => monitor.check(withCpu(value)));
    expect(events.map((event) => event.state)).toEqual(['crossed']);
  });

  it('clears once the value is back below level minus hysteresis', () => {
    const monitor = createThresholdMonitor(rules);
    monitor.check(withCpu(95));
    expect(monitor.check(withCpu(79))).toMatchObject([{ state: 'cleared', metric: 'cpu', clearAt: 80 }]);
    expect(monitor.active()).toEqual([]);
  });

  it('keeps its state through a sample without a reading', () => {
    const monitor = createThresholdMonitor(rules);
    monitor.check(withCpu(95));
    expect(monitor.check(withCpu(null))).toEqual([]);
    expect(monitor.active()).toHaveLength(1);
  });

  it('alerts when the battery falls below its level and clears above level plus hysteresis', () => {
    const monitor = createThresholdMonitor(rules);
    const battery = (percent: number) =>
      makeSnapshot({ battery: { percent, charging: false, acConnected: false, timeRemainingMinutes: null } });
    const states = [30, 15, 18, 20, 21].flatMap((percent) =>
      monitor.check(battery(percent)).map((e) => e.state),
    );
    expect(states).toEqual(['crossed', 'cleared']);
  });

  it('tracks each disk by its mount', () => {
    const monitor = createThresholdMonitor(rules);
    const base = makeSnapshot();
    const disk = base.disks?.[0];
    if (!disk) throw new Error('fixture has a disk');
    const events = monitor.check({
      ...base,
      disks: [
        { ...disk, mount: '/', usedPercent: 95 },
        { ...disk, mount: '/data', usedPercent: 50 },
      ],
    });
    expect(events).toMatchObject([{ metric: 'disk', subject: '/', state: 'crossed' }]);
  });

  it('uses the hottest sensor when none is known to be the CPU', () => {
    const monitor = createThresholdMonitor(rules);
    const events = monitor.check(
      makeSnapshot({
        temperatures: { cpuCelsius: null, maxCelsius: 91, sensors: [{ label: 'acpi', celsius: 91 }] },
      }),
    );
    expect(events).toMatchObject([{ metric: 'temperature', subject: 'max', value: 91 }]);
  });

  it('ignores a metric whose rule is turned off', () => {
    const monitor = createThresholdMonitor({ ...rules, cpu: false });
    expect(monitor.check(withCpu(100))).toEqual([]);
  });
});
