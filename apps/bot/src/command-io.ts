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
  /** A check failed or the answer could not be produced (Ollama down, model missing). */
  failed: 1,
  /** The command line was wrong. */
  usage: 2,
  /** Configuration is invalid (a bad schedules.json, a missing token for a command that needs it). */
  config: 3,
  /** Interrupted by SIGINT. */
  interrupted: 130,
} as const;
