import { isDependencyMissing, type Logger, silentLogger } from '@macstats/core';
import { type StartTracingOptions, startTracing, type Tracing } from './start-tracing.js';

/** Options of {@link startAppTracing}. */
export interface StartAppTracingOptions extends StartTracingOptions {
  /** Where it says where spans go, or why tracing is off. Default silent. */
  logger?: Logger | undefined;
}

/**
 * Starts tracing for one process of the app the way every command that answers or serves does
 * (`start`, `ask`, `mcp`, `eval`, the dashboard): from the standard `OTEL_*` settings, logging
 * where spans go, or a warning when the settings are set but cannot be used (no warning when
 * none is set). Resolves the tracing to shut down (which flushes) before the process exits, or
 * undefined when the settings ask for none; the SDK is loaded only then.
 *
 * @example
 * const tracing = await startAppTracing({ get: config.setting, serviceName: 'macstats-bot', logger });
 * try { await answer(); } finally { await tracing?.shutdown(); }
 */
export async function startAppTracing(options: StartAppTracingOptions): Promise<Tracing | undefined> {
  const logger = options.logger ?? silentLogger;
  let started: Awaited<ReturnType<typeof startTracing>>;
  try {
    started = await startTracing(options);
  } catch (error) {
    // The SDK is an optional install: without it the app runs untraced and says how to add it.
    if (!isDependencyMissing(error)) throw error;
    logger.warn({}, error.message);
    return undefined;
  }
  if ('tracing' in started) {
    const { settings } = started.tracing;
    const where = settings.exporter === 'otlp' ? settings.url : 'the console';
    logger.info({ exporter: settings.exporter }, `tracing: spans go to ${where}`);
    return started.tracing;
  }
  if (!started.settings.reason.startsWith('no OTEL_'))
    logger.warn({}, `tracing is off: ${started.settings.reason}`);
  return undefined;
}
