import { type Logger, silentLogger } from '@macstats/core';
import { createDefaultSource } from './default-source.js';
import { type CollectorIntervals, METRICS_DEFAULTS, type ThresholdOptions } from './defaults.js';
import { createEmitter, type Unsubscribe } from './emitter.js';
import { createMetricsHistory, type HistoryPoint, type HistoryResolution, historyValues } from './history.js';
import { createSnapshotBuilder } from './snapshot-builder.js';
import type { MetricsSnapshot } from './snapshot-types.js';
import type { MetricsSource } from './source-types.js';
import { createThresholdMonitor, type ThresholdEvent } from './thresholds.js';

/** The two sampling speeds. */
export type CollectorSpeed = 'fast' | 'slow';

/** Options of {@link createMetricsCollector}; every one has a default in {@link METRICS_DEFAULTS}. */
export interface MetricsCollectorOptions {
  /** Reads the raw counters. Default {@link createDefaultSource}: `/proc` on Linux, systeminformation elsewhere. */
  source?: MetricsSource;
  /** Milliseconds since the epoch; stamps samples and drives rates and history. Default `Date.now`. */
  clock?: () => number;
  /** Starting speed. Default `'slow'` (every 5 s). */
  speed?: CollectorSpeed;
  /** Sampling periods; see {@link CollectorIntervals} for each default. */
  intervals?: Partial<CollectorIntervals>;
  /** Threshold rules, merged over the defaults; `false` turns one off. */
  thresholds?: Partial<ThresholdOptions>;
  /** Processes in each top list. Default 5. */
  topProcesses?: number;
  /** Where reader failures and listener errors go. Default `silentLogger`. */
  logger?: Logger;
  /** Keep the process alive while the collector runs. Default `false`: its timer is unref'd. */
  keepAlive?: boolean;
}

/** Events of a collector: subscribe with `collector.on(name, listener)`. */
export interface MetricsCollectorEvents extends Record<string, unknown> {
  /** Every snapshot, after history and thresholds have taken it in. */
  sample: MetricsSnapshot;
  /** A threshold crossed or cleared. */
  threshold: ThresholdEvent;
}

/** A running monitor of this machine. */
export interface MetricsCollector {
  /** Starts sampling: one sample now, the second after `warmupMs`, then one per period. Idempotent. */
  start(): void;
  /** Stops sampling and waits for a sample in flight. `latest()` and `history()` stay readable. */
  stop(): Promise<void>;
  /** The newest snapshot, or `null` before the first. */
  latest(): MetricsSnapshot | null;
  /** Takes a sample now, whether running or not; concurrent calls share one reading. */
  sample(): Promise<MetricsSnapshot>;
  /** The current speed. */
  readonly speed: CollectorSpeed;
  /** True between `start()` and `stop()`. */
  readonly running: boolean;
  /** Switches speed; a running collector reschedules its next sample at once. */
  setSpeed(speed: CollectorSpeed): void;
  /** Shorthand for the dashboard: watching → `fast`, not watching → `slow`. */
  setWatching(watching: boolean): void;
  /** History at one resolution, oldest first; the last point is the bucket in progress. */
  history(resolution: HistoryResolution): HistoryPoint[];
  /** Thresholds currently crossed. */
  activeThresholds(): ThresholdEvent[];
  /** Subscribes to `sample` or `threshold`; returns the function that unsubscribes. */
  on<Name extends keyof MetricsCollectorEvents>(
    name: Name,
    listener: (value: MetricsCollectorEvents[Name]) => void,
  ): Unsubscribe;
}

/**
 * Creates a two-speed collector: every 2 s while someone watches, every 5 s otherwise, with the
 * process list, disks, sensors and GPUs read at their own slower rates.
 *
 * @example
 * const collector = createMetricsCollector();
 * collector.on('threshold', (event) => logger.warn({ metric: event.metric, value: event.value }, event.state));
 * collector.start();
 * // later
 * const line = formatSummaryLine(collector.latest());
 * await collector.stop();
 */
export function createMetricsCollector(options: MetricsCollectorOptions = {}): MetricsCollector {
  const logger = options.logger ?? silentLogger;
  const clock = options.clock ?? Date.now;
  const intervals: CollectorIntervals = { ...METRICS_DEFAULTS.intervals, ...options.intervals };
  const builder = createSnapshotBuilder({
    source: options.source ?? createDefaultSource(),
    intervals,
    topProcesses: options.topProcesses ?? METRICS_DEFAULTS.topProcesses,
    logger,
    platform: process.platform,
  });
  const history = createMetricsHistory();
  const thresholds = createThresholdMonitor({ ...METRICS_DEFAULTS.thresholds, ...options.thresholds });
  const emitter = createEmitter<MetricsCollectorEvents>(logger);
  let speed: CollectorSpeed = options.speed ?? METRICS_DEFAULTS.speed;
  let latest: MetricsSnapshot | null = null;
  let pending: Promise<MetricsSnapshot> | undefined;
  let timer: ReturnType<typeof setTimeout> | undefined;
  let running = false;
  let lastTickAt = 0;
  let samplesSinceStart = 0;

  const period = () => (speed === 'fast' ? intervals.fastMs : intervals.slowMs);

  async function takeSample(): Promise<MetricsSnapshot> {
    const snapshot = await builder.sample(clock());
    latest = snapshot;
    history.add(snapshot.time, historyValues(snapshot));
    const events = thresholds.check(snapshot);
    emitter.emit('sample', snapshot);
    for (const event of events) emitter.emit('threshold', event);
    return snapshot;
  }

  function sample(): Promise<MetricsSnapshot> {
    pending ??= takeSample().finally(() => {
      pending = undefined;
    });
    return pending;
  }

  function schedule(delay: number): void {
    clearTimeout(timer);
    timer = setTimeout(tick, Math.max(0, delay));
    if (!options.keepAlive) timer.unref?.();
  }

  async function tick(): Promise<void> {
    timer = undefined;
    lastTickAt = performance.now();
    try {
      await sample();
    } catch (error) {
      logger.error({ error: String(error) }, 'metrics sample failed');
    }
    samplesSinceStart += 1;
    if (running && timer === undefined) {
      schedule(samplesSinceStart === 1 ? Math.min(intervals.warmupMs, period()) : period());
    }
  }

  function setSpeed(next: CollectorSpeed): void {
    if (next !== 'fast' && next !== 'slow')
      throw new TypeError(`Unknown speed "${String(next)}": use fast or slow.`);
    if (next === speed) return;
    speed = next;
    // Reschedule from the last sample, so switching to fast brings the next sample forward.
    if (running && timer !== undefined) schedule(period() - (performance.now() - lastTickAt));
  }

  return {
    start() {
      if (running) return;
      running = true;
      samplesSinceStart = 0;
      schedule(0);
    },
    async stop() {
      running = false;
      clearTimeout(timer);
      timer = undefined;
      await pending?.catch(() => undefined);
    },
    latest: () => latest,
    sample,
    get speed() {
      return speed;
    },
    get running() {
      return running;
    },
    setSpeed,
    setWatching(watching) {
      setSpeed(watching ? 'fast' : 'slow');
    },
    history: (resolution) => history.points(resolution),
    activeThresholds: () => thresholds.active(),
    on: (name, listener) => emitter.on(name, listener),
  };
}
