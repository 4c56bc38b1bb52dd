export type { AppMetrics, AppMetricsOptions, DiscordCount } from './app-metrics.js';
export { createAppMetrics } from './app-metrics.js';
export type { TodayTotals } from './daily-totals.js';
export type { ObservabilityErrorCode } from './error-codes.js';
export type { MetricsServer, MetricsServerOptions } from './metrics-server.js';
export { METRICS_SERVER_DEFAULTS, startMetricsServer } from './metrics-server.js';
export type { StartAppTracingOptions } from './start-app-tracing.js';
export { startAppTracing } from './start-app-tracing.js';
export type { Observability, StartObservabilityOptions } from './start-observability.js';
export { OBSERVABILITY_SETTING_KEYS, parseMetricsPort, startObservability } from './start-observability.js';
export type { StartTracingOptions, Tracing } from './start-tracing.js';
export { startTracing } from './start-tracing.js';
export type { TracingSettings } from './tracing-settings.js';
export {
  isContentCaptureOn,
  parseKeyValueList,
  readTracingSettings,
  TRACING_SETTING_KEYS,
} from './tracing-settings.js';
export type { VoiceCount } from './voice-metrics.js';
