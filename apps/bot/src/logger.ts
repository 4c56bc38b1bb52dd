import { mkdirSync } from 'node:fs';
import { PRIVATE_DIR_MODE, PRIVATE_FILE_MODE } from '@macstats/core/internal';
import { type DestinationStream, multistream, type Logger as PinoLogger, pino } from 'pino';
import { openRollingFile, parseFileSize, type RollingFile } from './rolling-file.js';

/** Options of {@link createAppLogger}. */
export interface AppLoggerOptions {
  /** Folder of the rotating log file; `MACSTATS_HOME/logs`. */
  logDir: string;
  /** Turns any text into text without secrets; applied to every line before it is written. */
  scrub: (text: string) => string;
  /** Level; default `info`. */
  level?: string;
  /** Where console lines go; default standard output (`ask` passes standard error to keep its answer clean). */
  console?: DestinationStream | false;
  /** Size of one log file before it rolls, such as `5m` or `512k`; default `5m`. */
  fileSize?: string;
  /** Rolled files kept besides the active one; default 4. */
  fileCount?: number;
}

/**
 * A pino logger writing JSON lines to a size-capped rotating file (`macstats.N.log`) and to the console, secrets
 * scrubbed. The log folder (and any folder above it that it creates, such as a new
 * `MACSTATS_HOME`) is made 0700 and every log file 0600: other users of the machine read neither.
 */
export async function createAppLogger(
  options: AppLoggerOptions,
): Promise<{ logger: PinoLogger; close(): Promise<void>; problem?: string }> {
  let file: RollingFile | undefined;
  let problem: string | undefined;
  try {
    // The logger is usually the first to write under MACSTATS_HOME, so it creates the home too.
    mkdirSync(options.logDir, { recursive: true, mode: PRIVATE_DIR_MODE });
    file = openRollingFile({
      dir: options.logDir,
      name: 'macstats',
      maxBytes: parseFileSize(options.fileSize ?? '5m'),
      keep: options.fileCount ?? 4,
      mode: PRIVATE_FILE_MODE,
    });
  } catch (error) {
    // An unwritable MACSTATS_HOME must not stop `doctor` from saying so: log to the console only.
    problem = `cannot write logs to ${options.logDir} (${(error as NodeJS.ErrnoException).code ?? (error as Error).message})`;
  }
  const streams: Array<{ stream: DestinationStream; level?: string }> = [];
  if (file) streams.push({ stream: file });
  if (options.console !== false) streams.push({ stream: options.console ?? process.stdout });
  const logger = pino(
    {
      level: options.level ?? 'info',
      base: { pid: process.pid },
      hooks: { streamWrite: (line) => options.scrub(line) },
      redact: {
        paths: ['token', 'apiKey', '*.token', '*.apiKey', 'headers.authorization', '*.headers.authorization'],
        censor: '***',
      },
    },
    multistream(streams as Parameters<typeof multistream>[0]),
  );
  const close = () =>
    new Promise<void>((resolve) => {
      if (!file) return resolve();
      // end() waits for the file to open, writes what is buffered, then closes it.
      file.once('close', () => resolve());
      file.end();
      setTimeout(resolve, 2000).unref();
    });
  return { logger, close, ...(problem ? { problem } : {}) };
}
