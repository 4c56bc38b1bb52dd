import type { Logger } from '@macstats/core';

/** Where a command writes: `out` for its result, `err` for problems, `logger` for the log. */
export interface CommandIo {
  out(line: string): void;
  err(line: string): void;
  /** Streams text without a newline (the answer of `ask`). */
  write(text: string): void;
  logger: Logger;
}

/** Exit codes scripts can rely on. */
export const EXIT = {
  ok: 0,
  /** A check failed, the answer could not be produced (Ollama down, model missing), or `start` could not start. */
  failed: 1,
  /** The command line was wrong. */
  usage: 2,
  /** Configuration is invalid: a bad schedules.json, a token or intent Discord refused. Restarting will not help. */
  config: 3,
  /** `ask` interrupted by SIGINT or SIGTERM. */
  interrupted: 130,
} as const;
