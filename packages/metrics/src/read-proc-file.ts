import { closeSync, openSync, readSync } from 'node:fs';

/** One buffer for every proc read; proc files are small, and a larger one is read in several passes. */
let buffer = Buffer.allocUnsafe(16 * 1024);

/**
 * Reads a proc or sysfs file with open, read and close only. `readFileSync` adds an `fstat` and,
 * because proc files report a size of 0, an extra read and a fresh buffer each time; this runs
 * several times per sample and once per process per process-list read, so the difference shows
 * in the collector's own CPU time. Returns `null` when the file cannot be opened or read.
 */
export function readProcFile(path: string): string | null {
  let descriptor: number;
  try {
    descriptor = openSync(path, 'r');
  } catch {
    return null;
  }
  try {
    let length = 0;
    for (;;) {
      if (length === buffer.length) {
        const larger = Buffer.allocUnsafe(buffer.length * 2);
        buffer.copy(larger, 0, 0, length);
        buffer = larger;
      }
      const read = readSync(descriptor, buffer, length, buffer.length - length, null);
      if (read === 0) break;
      length += read;
    }
    return buffer.toString('latin1', 0, length);
  } catch {
    return null;
  } finally {
    closeSync(descriptor);
  }
}

/** Like {@link readProcFile}, but a missing file is an error naming the path. */
export function readRequiredProcFile(path: string): string {
  const text = readProcFile(path);
  if (text === null) throw new Error(`Cannot read ${path}.`);
  return text;
}
