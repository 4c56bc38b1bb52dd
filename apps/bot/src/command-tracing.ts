import type { Tracing } from '@macstats/observability';
import type { AppConfig } from './app-config.js';
import type { CommandIo } from './command-io.js';

/** `service.name` of every `macstats` process; `macstats.command` tells the commands apart. */
export const BOT_SERVICE_NAME = 'macstats-bot';

/**
 * Starts tracing for a command that answers or serves (`ask`, `mcp`, `eval`; `start` through its
 * observability) from the standard `OTEL_*` settings, with the shared helper of
 * `@macstats/observability`. Its standard output carries the answer, the report or the MCP
 * protocol, so spans never go to the console there: that setting leaves tracing off with a
 * sentence on standard error. Resolves undefined when nothing is set; shut the result down
 * (which flushes) before the process exits.
 */
export async function startCommandTracing(
  config: AppConfig,
  io: CommandIo,
  command: string,
): Promise<Tracing | undefined> {
  const { readTracingSettings, startAppTracing } = await import('@macstats/observability');
  if (readTracingSettings(config.setting).exporter === 'console') {
    const sentence = `tracing is off: OTEL_TRACES_EXPORTER=console would mix spans into the standard output of \`macstats ${command}\`; set OTEL_EXPORTER_OTLP_ENDPOINT instead`;
    io.logger.warn({}, sentence);
    io.err(`macstats: ${sentence}.`);
    return undefined;
  }
  const logger = {
    debug: (details: object, message?: string) => io.logger.debug(details, message),
    info: (details: object, message?: string) => io.logger.info(details, message),
    error: (details: object, message?: string) => io.logger.error(details, message),
    // A setting that cannot be used is said where the user looks, not only in the log file.
    warn: (details: object, message?: string) => {
      io.logger.warn(details, message);
      if (message) io.err(`macstats: ${message}`);
    },
  };
  return startAppTracing({
    get: config.setting,
    serviceName: BOT_SERVICE_NAME,
    attributes: { 'macstats.command': command },
    logger,
  });
}
