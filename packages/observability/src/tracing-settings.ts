/** What the standard `OTEL_*` settings ask for, read by {@link readTracingSettings}. */
export type TracingSettings =
  | { exporter: 'none'; reason: string }
  | { exporter: 'console' }
  | {
      exporter: 'otlp';
      protocol: 'http/json' | 'http/protobuf';
      /** Where spans are posted: the traces endpoint, or the base endpoint plus `/v1/traces`. */
      url: string;
      headers: Record<string, string>;
    };

/** The settings {@link readTracingSettings} reads, for the apps' config key lists. */
export const TRACING_SETTING_KEYS = [
  'OTEL_SDK_DISABLED',
  'OTEL_TRACES_EXPORTER',
  'OTEL_EXPORTER_OTLP_ENDPOINT',
  'OTEL_EXPORTER_OTLP_TRACES_ENDPOINT',
  'OTEL_EXPORTER_OTLP_PROTOCOL',
  'OTEL_EXPORTER_OTLP_TRACES_PROTOCOL',
  'OTEL_EXPORTER_OTLP_HEADERS',
  'OTEL_EXPORTER_OTLP_TRACES_HEADERS',
  'OTEL_SERVICE_NAME',
  'OTEL_RESOURCE_ATTRIBUTES',
  'OTEL_INSTRUMENTATION_GENAI_CAPTURE_MESSAGE_CONTENT',
] as const;

/**
 * `OTEL_INSTRUMENTATION_GENAI_CAPTURE_MESSAGE_CONTENT=true`: prompts, replies and tool text go in
 * spans (anything else, or unset: names, counts and times only).
 */
export function isContentCaptureOn(get: (key: string) => string | undefined): boolean {
  return get('OTEL_INSTRUMENTATION_GENAI_CAPTURE_MESSAGE_CONTENT')?.trim().toLowerCase() === 'true';
}

/** The OTLP default when no endpoint names another: a collector on this machine. */
const DEFAULT_ENDPOINT = 'http://localhost:4318';

/** `k1=v1,k2=v2` with percent-encoded values, as OTEL_EXPORTER_OTLP_HEADERS and OTEL_RESOURCE_ATTRIBUTES spell them. */
export function parseKeyValueList(text: string | undefined): Record<string, string> {
  const pairs: Record<string, string> = {};
  for (const part of (text ?? '').split(',')) {
    const at = part.indexOf('=');
    if (at <= 0) continue;
    const key = part.slice(0, at).trim();
    const raw = part.slice(at + 1).trim();
    let value = raw;
    try {
      value = decodeURIComponent(raw);
    } catch {}
    if (key !== '') pairs[key] = value;
  }
  return pairs;
}

/**
 * Reads the standard OpenTelemetry settings: tracing is on when `OTEL_EXPORTER_OTLP_ENDPOINT` or
 * `OTEL_EXPORTER_OTLP_TRACES_ENDPOINT` is set, or `OTEL_TRACES_EXPORTER` is `otlp` (then to
 * `http://localhost:4318`) or `console`; off when none is, or `OTEL_SDK_DISABLED=true`, or
 * `OTEL_TRACES_EXPORTER=none`. The protocol is `http/protobuf` (the standard's default) or
 * `http/json`; `grpc` is not supported and leaves tracing off with a reason.
 *
 * @example
 * readTracingSettings({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://127.0.0.1:4318' });
 * // { exporter: 'otlp', protocol: 'http/protobuf', url: 'http://127.0.0.1:4318/v1/traces', headers: {} }
 */
export function readTracingSettings(get: (key: string) => string | undefined): TracingSettings {
  const value = (key: string) => {
    const found = get(key)?.trim();
    return found ? found : undefined;
  };
  if (value('OTEL_SDK_DISABLED')?.toLowerCase() === 'true')
    return { exporter: 'none', reason: 'OTEL_SDK_DISABLED is true' };
  const exporters = (value('OTEL_TRACES_EXPORTER') ?? '')
    .toLowerCase()
    .split(',')
    .map((name) => name.trim());
  const tracesEndpoint = value('OTEL_EXPORTER_OTLP_TRACES_ENDPOINT');
  const endpoint = value('OTEL_EXPORTER_OTLP_ENDPOINT');
  if (exporters.includes('none')) return { exporter: 'none', reason: 'OTEL_TRACES_EXPORTER is none' };
  if (exporters.includes('console') && !exporters.includes('otlp')) return { exporter: 'console' };
  if (!exporters.includes('otlp') && !tracesEndpoint && !endpoint)
    return { exporter: 'none', reason: 'no OTEL_EXPORTER_OTLP_ENDPOINT is set' };
  const protocol = (
    value('OTEL_EXPORTER_OTLP_TRACES_PROTOCOL') ??
    value('OTEL_EXPORTER_OTLP_PROTOCOL') ??
    'http/protobuf'
  ).toLowerCase();
  if (protocol !== 'http/json' && protocol !== 'http/protobuf')
    return {
      exporter: 'none',
      reason: `OTEL_EXPORTER_OTLP_PROTOCOL "${protocol}" is not supported; use http/protobuf or http/json`,
    };
  const url = tracesEndpoint ?? `${(endpoint ?? DEFAULT_ENDPOINT).replace(/\/+$/, '')}/v1/traces`;
  return {
    exporter: 'otlp',
    protocol,
    url,
    headers: {
      ...parseKeyValueList(value('OTEL_EXPORTER_OTLP_HEADERS')),
      ...parseKeyValueList(value('OTEL_EXPORTER_OTLP_TRACES_HEADERS')),
    },
  };
}
