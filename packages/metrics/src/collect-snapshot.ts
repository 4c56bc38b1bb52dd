import { setTimeout as sleep } from 'node:timers/promises';
import { type Logger, silentLogger } from '@macstats/core';
import { createDefaultSource } from './default-source.js';
import { METRICS_DEFAULTS } from './defaults.js';
import { createSnapshotBuilder } from './snapshot-builder.js';
import type { MetricsSnapshot } from './snapshot-types.js';
import type { MetricsSource } from './source-types.js';

/** Options of {@link collectSnapshot}. */
export interface CollectSnapshotOptions {
  /** Reads the raw counters. Default {@link createDefaultSource}. */
  source?: MetricsSource;
  /** Time between the two readings rates are computed from. Default 500 ms. */
  windowMs?: number;
  /** Processes in each top list. Default 5. */
  topProcesses?: number;
  /** Where reader failures go. Default `silentLogger`. */
  logger?: Logger;
  /** Aborts the wait between the two readings; the promise rejects with the signal's reason. */
  signal?: AbortSignal;
}

/**
 * Reads the whole machine once. Rates need two readings, so it reads, waits `windowMs`, and
 * reads again: every rate in the result is measured, none is a first-sample zero.
 *
 * @example
 * const snapshot = await collectSnapshot();
 * const { usagePercent } = snapshot.cpu; // and snapshot.memory?.usedPercent, …
 */
export async function collectSnapshot(options: CollectSnapshotOptions = {}): Promise<MetricsSnapshot> {
  const windowMs = options.windowMs ?? METRICS_DEFAULTS.snapshotWindowMs;
  const builder = createSnapshotBuilder({
    source: options.source ?? createDefaultSource(),
    intervals: METRICS_DEFAULTS.intervals,
    topProcesses: options.topProcesses ?? METRICS_DEFAULTS.topProcesses,
    logger: options.logger ?? silentLogger,
    platform: process.platform,
  });
  const signal = options.signal;
  signal?.throwIfAborted();
  const start = Date.now();
  await builder.sample(start);
  try {
    await sleep(windowMs, undefined, signal ? { signal } : {});
  } catch (error) {
    signal?.throwIfAborted(); // the caller's own reason, not the timer's AbortError
    throw error;
  }
  // Stamp the second reading with the measured gap: a timer can fire late, and rates divide by it.
  return builder.sample(Math.max(Date.now(), start + 1));
}
