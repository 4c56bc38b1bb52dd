import type { AgentEvent } from '@macstats/core';
import {
  HISTORY_RESOLUTIONS,
  type HistoryPoint,
  type HistoryResolution,
  type InferenceRecord,
  type InferenceRecorder,
  METRICS_DEFAULTS,
  type MetricsCollector,
  type MetricsSnapshot,
} from '@macstats/metrics';
import type { TodayTotals } from '@macstats/observability';
import { HttpError, sendJson } from './http-helpers.js';
import type { DashboardCore, DashboardFeature } from './start-dashboard.js';

/** Options of {@link createMetricsFeature}. */
export interface MetricsFeatureOptions {
  collector: MetricsCollector;
  /** Model calls beside the machine's load; shown on the page when given. */
  recorder?: InferenceRecorder;
  /** The collector's fast period, shown on the page. Default 2000 ms. */
  fastMs?: number;
  /** The collector's slow period. Default 5000 ms. */
  slowMs?: number;
  /** Today's totals of answers, tokens, tools and runs (`@macstats/observability`), for `GET /api/today`. */
  today?: () => Promise<TodayTotals>;
}

/** What each `metrics` event and the first paint carry. */
export interface MetricsEvent {
  snapshot: MetricsSnapshot;
  /** The newest bucket of each resolution, so the page extends its charts without a re-read. */
  points: Partial<Record<HistoryResolution, HistoryPoint>>;
  intervalMs: number;
}

const RESOLUTIONS = Object.keys(HISTORY_RESOLUTIONS) as HistoryResolution[];

/** Model calls shown on the page. */
const INFERENCE_SHOWN = 8;

/**
 * Live metrics: every sample goes to the open pages; the collector runs at its fast speed only
 * while at least one page is open, and falls back to slow when the last one closes.
 */
export function createMetricsFeature(
  core: DashboardCore,
  options: MetricsFeatureOptions,
): DashboardFeature & { recordCall(event: AgentEvent): InferenceRecord | null } {
  const { collector, recorder } = options;
  const inference = () =>
    recorder
      ? { records: recorder.list().slice(-INFERENCE_SHOWN).reverse(), summary: recorder.summary() }
      : null;
  const fastMs = options.fastMs ?? METRICS_DEFAULTS.intervals.fastMs;
  const slowMs = options.slowMs ?? METRICS_DEFAULTS.intervals.slowMs;

  const eventOf = (snapshot: MetricsSnapshot): MetricsEvent => {
    const points: Partial<Record<HistoryResolution, HistoryPoint>> = {};
    for (const resolution of RESOLUTIONS) {
      const list = collector.history(resolution);
      const last = list[list.length - 1];
      if (last) points[resolution] = last;
    }
    return { snapshot, points, intervalMs: collector.speed === 'fast' ? fastMs : slowMs };
  };

  const unsubscribe = collector.on('sample', (snapshot) => {
    if (core.hub.count > 0) core.hub.broadcast('metrics', eventOf(snapshot));
  });

  return {
    recordCall(event) {
      const record = recorder?.record(event) ?? null;
      if (record) core.hub.broadcast('inference', inference());
      return record;
    },
    routes: [
      {
        method: 'GET',
        path: /^\/api\/today$/,
        kind: 'read',
        async handle({ response }) {
          if (!options.today) throw new HttpError(404, "Today's totals are not counted here.");
          sendJson(response, 200, await options.today());
        },
      },
      {
        method: 'GET',
        path: /^\/api\/metrics\/history$/,
        kind: 'read',
        handle({ url, response }) {
          const resolution = (url.searchParams.get('resolution') ?? '1s') as HistoryResolution;
          if (!RESOLUTIONS.includes(resolution)) {
            throw new HttpError(400, `Unknown resolution: use ${RESOLUTIONS.join(', ')}.`);
          }
          sendJson(response, 200, {
            resolution,
            points: collector.history(resolution),
            capacity: HISTORY_RESOLUTIONS[resolution].capacity,
          });
        },
      },
    ],
    state() {
      const latest = collector.latest();
      return { metrics: latest ? eventOf(latest) : null, inference: inference() };
    },
    onClientCountChange(count) {
      // Switching to fast brings the next sample forward, so a page that opens gets fresh numbers soon.
      collector.setWatching(count > 0);
    },
    close() {
      unsubscribe();
    },
  };
}
