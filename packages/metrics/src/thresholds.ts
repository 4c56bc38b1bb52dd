import type { ThresholdOptions, ThresholdRule } from './defaults.js';
import type { MetricsSnapshot } from './snapshot-types.js';

/** The metrics thresholds watch. */
export type ThresholdMetric = 'cpu' | 'memory' | 'disk' | 'temperature' | 'battery';

/** A threshold crossed, or cleared again. */
export interface ThresholdEvent {
  /** `crossed` when the value reaches the level; `cleared` when it is back past the hysteresis band. */
  state: 'crossed' | 'cleared';
  metric: ThresholdMetric;
  /** What crossed it: `cpu`, `memory`, `battery`, the sensor kind for temperature, the mount for a disk. */
  subject: string;
  /** The value that caused the event (%, or °C for temperature). */
  value: number;
  /** The rule's level. */
  level: number;
  /** Where the alert clears: level − hysteresis (level + hysteresis for the battery). */
  clearAt: number;
  /** The sample's time, ms since the epoch. */
  time: number;
}

/** Tracks which thresholds are crossed; reports only changes. */
export interface ThresholdMonitor {
  /** The events this snapshot causes: a crossing or a clearing, never a repeat. */
  check(snapshot: MetricsSnapshot): ThresholdEvent[];
  /** The crossings still in force. */
  active(): ThresholdEvent[];
}

/** Creates a {@link ThresholdMonitor} for the given rules. */
export function createThresholdMonitor(rules: ThresholdOptions): ThresholdMonitor {
  const crossed = new Map<string, ThresholdEvent>();

  function evaluate(
    events: ThresholdEvent[],
    metric: ThresholdMetric,
    subject: string,
    value: number | null | undefined,
    time: number,
  ): void {
    const rule: ThresholdRule | false = rules[metric];
    if (rule === false || value === null || value === undefined) return; // no reading: keep the state
    const below = metric === 'battery'; // the battery alerts when it runs low
    const clearAt = below ? rule.level + rule.hysteresis : rule.level - rule.hysteresis;
    const key = `${metric}\u0000${subject}`;
    const current = crossed.get(key);
    const base = { metric, subject, value, level: rule.level, clearAt, time };
    if (!current && (below ? value <= rule.level : value >= rule.level)) {
      const event: ThresholdEvent = { state: 'crossed', ...base };
      crossed.set(key, event);
      events.push(event);
    } else if (current && (below ? value > clearAt : value < clearAt)) {
      crossed.delete(key);
      events.push({ state: 'cleared', ...base });
    }
  }

  return {
    check(snapshot) {
      const events: ThresholdEvent[] = [];
      const { time } = snapshot;
      evaluate(events, 'cpu', 'cpu', snapshot.cpu.usagePercent, time);
      evaluate(events, 'memory', 'memory', snapshot.memory?.usedPercent, time);
      for (const disk of snapshot.disks ?? []) evaluate(events, 'disk', disk.mount, disk.usedPercent, time);
      const temperatures = snapshot.temperatures;
      if (temperatures) {
        const cpu = temperatures.cpuCelsius;
        evaluate(events, 'temperature', cpu === null ? 'max' : 'cpu', cpu ?? temperatures.maxCelsius, time);
      }
      evaluate(events, 'battery', 'battery', snapshot.battery?.percent, time);
      return events;
    },
    active() {
      return [...crossed.values()];
    },
  };
}
