import { rm, stat } from 'node:fs/promises';
import { createPrivateFile } from '@macstats/core/internal';

/** How long a lock file may be held before another writer takes it as left by a dead process. */
const STALE_MS = 10_000;

function pause(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

/**
 * Runs `work` holding `<file>.lock`, so the runner and a `task cancel` in another process do not
 * write the same task at once. A lock older than ten seconds is taken as left by a dead process.
 */
export async function withFileLock<T>(file: string, work: () => Promise<T>): Promise<T> {
  const lock = `${file}.lock`;
  for (let attempt = 0; ; attempt += 1) {
    try {
      await createPrivateFile(lock);
      break;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      const age = await stat(lock).then(
        (found) => Date.now() - found.mtimeMs,
        () => 0,
      );
      if (age > STALE_MS) await rm(lock, { force: true });
      else await pause(Math.min(5 + attempt * 5, 50));
    }
  }
  try {
    return await work();
  } finally {
    await rm(lock, { force: true });
  }
}
