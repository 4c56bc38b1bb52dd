import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Logger } from '@macstats/core';

/** A fresh folder under the system temp dir, removed by `cleanup`. */
export async function temporaryFolder(): Promise<{ path: string; cleanup: () => Promise<void> }> {
  const path = await mkdtemp(join(tmpdir(), 'macstats-memory-'));
  return { path, cleanup: () => rm(path, { recursive: true, force: true }) };
}

/** A logger that keeps every line for the test to read. */
export function recordingLogger(): Logger & {
  lines: Array<{ level: string; details: object; message?: string }>;
} {
  const lines: Array<{ level: string; details: object; message?: string }> = [];
  const at =
    (level: string) =>
    (details: object, message?: string): void => {
      lines.push({ level, details, ...(message === undefined ? {} : { message }) });
    };
  return { lines, debug: at('debug'), info: at('info'), warn: at('warn'), error: at('error') };
}

/** A clock the test moves by hand. */
export function manualClock(start: number): { now: () => number; advance: (ms: number) => void } {
  let current = start;
  return { now: () => current, advance: (ms) => (current += ms) };
}

export const WEEK = 7 * 24 * 60 * 60 * 1000;
