import { InvalidArgumentError } from 'commander';
import type { AppConfig } from './app-config.js';
import { type CommandIo, EXIT } from './command-io.js';

/** `start` logs to standard output; the other commands keep it for their own output. */
export type LogTo = 'stdout' | 'file-only';

async function makeIo(config: AppConfig, logTo: LogTo): Promise<CommandIo & { close(): Promise<void> }> {
  const [{ paths }, { createAppLogger }, { createSecretScrubber }] = await Promise.all([
    import('./app-config.js'),
    import('./logger.js'),
    import('./secrets.js'),
  ]);
  const scrub = createSecretScrubber([config.discordToken, config.braveApiKey], [config.mcpUrl]);
  const { logger, close, problem } = await createAppLogger({
    logDir: paths(config).logs,
    scrub,
    level: config.logLevel,
    console: logTo === 'stdout' ? process.stdout : false,
  });
  if (problem) process.stderr.write(`macstats: ${problem}; logging to the console only\n`);
  return {
    logger,
    close,
    out: (line) => process.stdout.write(`${scrub(line)}\n`),
    err: (line) => process.stderr.write(`${scrub(line)}\n`),
    write: (text) => process.stdout.write(scrub(text)),
  };
}

/**
 * Runs one command, turning any unexpected error into one sentence and exit 1. A command named
 * in `traced` answers or serves: it traces from the `OTEL_*` settings, flushed before the exit.
 */
export async function run(
  logTo: LogTo,
  body: (config: AppConfig, io: CommandIo) => Promise<number>,
  traced?: string,
): Promise<void> {
  const { readAppConfig } = await import('./app-config.js');
  const config = readAppConfig();
  const io = await makeIo(config, logTo);
  // A crash inside one answer must not take a running bot down: log it and go on.
  process.on('unhandledRejection', (reason) => io.logger.error({ err: reason }, 'unhandled rejection'));
  process.on('uncaughtException', (error) => io.logger.error({ err: error }, 'uncaught exception'));
  const tracing =
    traced === undefined
      ? undefined
      : await (await import('./command-tracing.js')).startCommandTracing(config, io, traced);
  let code: number;
  try {
    code = await body(config, io);
  } catch (error) {
    io.logger.error({ err: error }, 'command failed');
    io.err(`macstats: ${(error as Error).message}`);
    code = EXIT.failed;
  }
  await tracing?.shutdown();
  await io.close();
  process.exit(code);
}

/**
 * Aborts on the first SIGINT or SIGTERM; a second one exits at once. The listeners stay
 * installed (no `once`): another signal listener (the MCP child cleanup) would otherwise see
 * itself alone and re-raise the signal, killing the process before the clean shutdown.
 */
export function stopSignalFromProcess(): AbortSignal {
  const controller = new AbortController();
  const onSignal = (signal: NodeJS.Signals) => {
    if (!controller.signal.aborted) {
      controller.abort(signal);
      return;
    }
    process.stderr.write(`macstats: second ${signal}; exiting without waiting\n`);
    process.exit(signal === 'SIGINT' ? EXIT.interrupted : EXIT.failed);
  };
  process.on('SIGINT', onSignal);
  process.on('SIGTERM', onSignal);
  return controller.signal;
}

/** A commander parser of a whole number from `min` to `max`; `what` names the flag in its error. */
export function integerIn(min: number, max: number, what: string) {
  return (value: string): number => {
    const number = Number(value);
    if (!Number.isInteger(number) || number < min || number > max)
      throw new InvalidArgumentError(`${what}: a whole number from ${min} to ${max}`);
    return number;
  };
}

/** The `Exit codes:` block of a command's help. */
export const exitCodes = (lines: string[]) =>
  `\nExit codes:\n${lines.map((line) => `  ${line}`).join('\n')}\n`;

/** The bot's version, for the MCP handshake. */
export async function packageVersion(): Promise<string> {
  const { createRequire } = await import('node:module');
  try {
    return (createRequire(import.meta.url)('../package.json') as { version: string }).version;
  } catch {
    return '0.0.0';
  }
}
