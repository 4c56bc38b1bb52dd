import { hostname } from 'node:os';
import { importOptional } from '@macstats/core/internal';
import { context, propagation, trace } from '@opentelemetry/api';
import type { SpanExporter } from '@opentelemetry/sdk-trace-node';
import { parseKeyValueList, readTracingSettings, type TracingSettings } from './tracing-settings.js';

/** Options of {@link startTracing}. */
export interface StartTracingOptions {
  /** Reads a setting: the app's environment and config files (`OTEL_*`). */
  get: (key: string) => string | undefined;
  /** `service.name` unless `OTEL_SERVICE_NAME` says otherwise: `macstats-bot`, `macstats-dashboard`. */
  serviceName: string;
  /** `service.version`. */
  serviceVersion?: string | undefined;
  /** More resource attributes (`OTEL_RESOURCE_ATTRIBUTES` adds to them and wins). */
  attributes?: Record<string, string> | undefined;
}

/** Tracing once started: flush and stop it on shutdown. */
export interface Tracing {
  /** What the settings asked for. */
  settings: Exclude<TracingSettings, { exporter: 'none' }>;
  /** Sends the spans still buffered. */
  flush(): Promise<void>;
  /** Sends the spans still buffered and unregisters the provider; later spans are no-ops. */
  shutdown(): Promise<void>;
}

/** What tracing installs besides `@opentelemetry/api`: optional peers, for the exporter chosen. */
function sdkPackages(settings: Exclude<TracingSettings, { exporter: 'none' }>): string[] {
  const protocol = settings.exporter === 'otlp' ? settings.protocol : undefined;
  const exporter =
    protocol === 'http/json'
      ? '@opentelemetry/exporter-trace-otlp-http'
      : '@opentelemetry/exporter-trace-otlp-proto';
  return ['@opentelemetry/sdk-trace-node', '@opentelemetry/resources', ...(protocol ? [exporter] : [])];
}

/**
 * The SDK, loaded only once the settings ask for tracing: a command run without them does not
 * pay for loading it (a few hundred milliseconds), and an install that never traces has none of
 * it (optional peers; a missing one is named with the command that adds it).
 */
async function loadSdk(settings: Exclude<TracingSettings, { exporter: 'none' }>) {
  const packages = sdkPackages(settings);
  return importOptional(packages, 'Tracing', async () => {
    const [sdk, resources] = await Promise.all([
      import('@opentelemetry/sdk-trace-node'),
      import('@opentelemetry/resources'),
    ]);
    return { sdk, resources };
  });
}

async function exporterOf(
  settings: Exclude<TracingSettings, { exporter: 'none' }>,
  sdk: typeof import('@opentelemetry/sdk-trace-node'),
): Promise<SpanExporter> {
  if (settings.exporter === 'console') return new sdk.ConsoleSpanExporter();
  const config = { url: settings.url, headers: settings.headers };
  const packages = sdkPackages(settings);
  const neededBy = 'Tracing';
  return settings.protocol === 'http/json'
    ? new (
        await importOptional(packages, neededBy, () => import('@opentelemetry/exporter-trace-otlp-http'))
      ).OTLPTraceExporter(config)
    : new (
        await importOptional(packages, neededBy, () => import('@opentelemetry/exporter-trace-otlp-proto'))
      ).OTLPTraceExporter(config);
}

/**
 * Starts the OpenTelemetry tracer provider for this process when the standard settings ask for
 * it (see {@link readTracingSettings}): spans of `@macstats/*` (and anything else using
 * `@opentelemetry/api`) are batched and posted by OTLP/HTTP. Resolves `{ settings }` with
 * `exporter: 'none'` and starts nothing otherwise. The resource names the service and the host
 * (`host.name`, `host.arch`, `process.pid`, `service.instance.id`), so several hosts tell apart.
 * The SDK is loaded only when tracing starts.
 *
 * @example
 * const started = await startTracing({ get: config.get, serviceName: 'macstats-bot' });
 * if ('tracing' in started) onShutdown(() => started.tracing.shutdown());
 */
export async function startTracing(
  options: StartTracingOptions,
): Promise<{ tracing: Tracing } | { settings: Extract<TracingSettings, { exporter: 'none' }> }> {
  const settings = readTracingSettings(options.get);
  if (settings.exporter === 'none') return { settings };
  const { sdk, resources } = await loadSdk(settings);
  const { defaultResource, detectResources, hostDetector, resourceFromAttributes } = resources;
  const detected = detectResources({ detectors: [hostDetector] });
  await detected.waitForAsyncAttributes?.();
  const serviceName = options.get('OTEL_SERVICE_NAME')?.trim() || options.serviceName;
  const resource = defaultResource()
    .merge(detected)
    .merge(
      resourceFromAttributes({
        'service.name': serviceName,
        'service.instance.id': `${hostname()}:${process.pid}`,
        'process.pid': process.pid,
        'process.runtime.name': 'nodejs',
        'process.runtime.version': process.versions.node,
        ...(options.serviceVersion ? { 'service.version': options.serviceVersion } : {}),
        ...options.attributes,
        ...parseKeyValueList(options.get('OTEL_RESOURCE_ATTRIBUTES')),
        ...(options.get('OTEL_SERVICE_NAME')?.trim() ? { 'service.name': serviceName } : {}),
      }),
    );
  const provider = new sdk.NodeTracerProvider({
    resource,
    spanProcessors: [new sdk.BatchSpanProcessor(await exporterOf(settings, sdk))],
  });
  provider.register();
  let stopped: Promise<void> | undefined;
  return {
    tracing: {
      settings,
      flush: () => provider.forceFlush(),
      shutdown: () => {
        stopped ??= provider.shutdown().finally(() => {
          trace.disable();
          context.disable();
          propagation.disable();
        });
        return stopped;
      },
    },
  };
}
