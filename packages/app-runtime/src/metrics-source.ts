import type { MetricsCollector, MetricsSnapshot, MetricsToolSource } from '@macstats/metrics';

/** How long to wait between two readings when there is only one: CPU use is a difference of two. */
export const RATE_GAP_MS = 250;

/**
 * The METRICS tool's source for a collector that may not be running (`macstats ask`): a lone
 * first sample has no CPU use or rates yet, so the tool answers from a second reading taken
 * `gapMs` later instead of saying "not reported yet".
 */
export function metricsSourceWithRates(collector: MetricsCollector, gapMs = RATE_GAP_MS): MetricsToolSource {
  const hasRates = (snapshot: MetricsSnapshot | null) =>
    snapshot !== null && snapshot.cpu.usagePercent !== null;
  return {
    latest() {
      const latest = collector.latest();
      return hasRates(latest) ? latest : null;
    },
    async sample() {
      const first = await collector.sample();
      if (hasRates(first)) return first;
      await new Promise((resolve) => setTimeout(resolve, gapMs));
      return collector.sample();
    },
  };
}
