import { monitorEventLoopDelay } from 'node:perf_hooks';
import type { Logger } from '@macstats/core';

/** One `diagnostics` log line: the event loop's delay over the last interval, and memory now. */
export interface DiagnosticsFields {
  /** 99th percentile of the event loop's delay over the interval, in milliseconds. */
  eventLoopDelayP99Ms: number;
  /** Largest delay over the interval, in milliseconds. */
  eventLoopDelayMaxMs: number;
  /** Resident set size of the process, in bytes. */
  rssBytes: number;
  /** V8 heap in use, in bytes. */
  heapUsedBytes: number;
}

/**
 * Logs a `diagnostics` line every `intervalMs` (turned on by `MACSTATS_DIAGNOSTICS=<seconds>`
 * for `macstats start`; the fault soak reads these lines). Returns the function that stops it.
 */
export function startDiagnostics(logger: Logger, intervalMs: number): () => void {
  const histogram = monitorEventLoopDelay({ resolution: 10 });
  histogram.enable();
  const timer = setInterval(() => {
    const memory = process.memoryUsage();
    const fields: DiagnosticsFields = {
      eventLoopDelayP99Ms: round(histogram.percentile(99) / 1e6),
      eventLoopDelayMaxMs: round(histogram.max / 1e6),
      rssBytes: memory.rss,
      heapUsedBytes: memory.heapUsed,
    };
    histogram.reset();
    logger.info(fields, 'diagnostics');
  }, intervalMs);
  timer.unref();
  return () => {
    clearInterval(timer);
    histogram.disable();
  };
}

/** Seconds between diagnostics lines from `MACSTATS_DIAGNOSTICS`: a positive number, `1`/`true`/`on` for 10, else off. */
export function parseDiagnosticsSetting(value: string | undefined): number | undefined {
  if (value === undefined) return undefined;
  const text = value.trim().toLowerCase();
  if (['1', 'true', 'yes', 'on'].includes(text)) return 10;
  const seconds = Number(text);
  return Number.isFinite(seconds) && seconds > 0 ? seconds : undefined;
}

function round(milliseconds: number): number {
  return Math.round(milliseconds * 100) / 100;
}
