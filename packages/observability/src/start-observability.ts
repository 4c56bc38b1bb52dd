import { type Logger, silentLogger } from '@macstats/core';
import { type AppMetrics, createAppMetrics } from './app-metrics.js';
import { METRICS_SERVER_DEFAULTS, type MetricsServer, startMetricsServer } from './metrics-server.js';
import { startAppTracing } from './start-app-tracing.js';
import type { Tracing } from './start-tracing.js';
import { isContentCaptureOn, TRACING_SETTING_KEYS } from './tracing-settings.js';

/** Every setting {@link startObservability} reads, for the apps' config key lists. */
export const OBSERVABILITY_SETTING_KEYS = [...TRACING_SETTING_KEYS, 'METRICS_PORT', 'METRICS_HOST'] as const;

/** Options of {@link startObservability}. */
export interface StartObservabilityOptions {
  /** Reads a setting (environment, then config files). */
  get: (key: string) => string | undefined;
  /** `service.name` of the spans: `macstats-bot`, `macstats-dashboard`. */
  serviceName: string;
  serviceVersion?: string | undefined;
  /** More resource attributes of the spans (`macstats.command`). */
  attributes?: Record<string, string> | undefined;
  /** Count even without `METRICS_PORT` (a dashboard that shows today's totals). Default false. */
  alwaysCount?: boolean | undefined;
  logger?: Logger | undefined;
}

/** What an app started for being seen from outside; `close()` on shutdown. */
export interface Observability {
  /** The counters: set with `METRICS_PORT` or `alwaysCount`. */
  metrics: AppMetrics | undefined;
  /** The `/metrics` endpoint, when `METRICS_PORT` is set. */
  server: MetricsServer | undefined;
  /** Tracing, when the `OTEL_*` settings ask for it. */
  tracing: Tracing | undefined;
  /** `OTEL_INSTRUMENTATION_GENAI_CAPTURE_MESSAGE_CONTENT=true`: prompts, replies and tool text go in spans. */
  recordContent: boolean;
  /** Flushes the spans, closes the endpoint and stops the counters' day timer. */
  close(): Promise<void>;
}

/** `METRICS_PORT`: a port number, 0 for any free one; undefined (with a warning when set) otherwise. */
export function parseMetricsPort(text: string | undefined): { port?: number; warning?: string } {
  const trimmed = text?.trim();
  if (!trimmed) return {};
  const port = Number(trimmed);
  if (!/^\d+$/.test(trimmed) || port > 65_535)
    return { warning: `METRICS_PORT "${trimmed}" is not a port (0 to 65535); /metrics is off.` };
  return { port };
}

/**
 * Starts what the settings ask for and nothing else: tracing when an OTLP endpoint (or
 * `OTEL_TRACES_EXPORTER`) is set, `/metrics` on `METRICS_HOST` (default 127.0.0.1) when
 * `METRICS_PORT` is set. With none of them set nothing is started and nothing listens.
 *
 * @example
 * const observability = await startObservability({ get: config.get, serviceName: 'macstats-bot', logger });
 * const agent = observability.metrics?.observeAgent(createAgent(options)) ?? createAgent(options);
 * // on shutdown
 * await observability.close();
 */
export async function startObservability(options: StartObservabilityOptions): Promise<Observability> {
  const logger = options.logger ?? silentLogger;
  const tracing = await startAppTracing({
    get: options.get,
    serviceName: options.serviceName,
    serviceVersion: options.serviceVersion,
    attributes: options.attributes,
    logger,
  });
  const { port, warning } = parseMetricsPort(options.get('METRICS_PORT'));
  if (warning) logger.warn({}, warning);
  const metrics = port !== undefined || options.alwaysCount ? createAppMetrics() : undefined;
  let server: MetricsServer | undefined;
  if (metrics && port !== undefined) {
    const host = options.get('METRICS_HOST')?.trim() || METRICS_SERVER_DEFAULTS.host;
    try {
      server = await startMetricsServer({ registry: metrics.registry, port, host });
      logger.info({ url: server.url }, `metrics at ${server.url}`);
    } catch (error) {
      logger.warn({ err: error }, (error as Error).message);
    }
  }
  return {
    metrics,
    server,
    tracing,
    recordContent: isContentCaptureOn(options.get),
    async close() {
      metrics?.close();
      await Promise.allSettled([server?.close(), tracing?.shutdown()]);
    },
  };
}
