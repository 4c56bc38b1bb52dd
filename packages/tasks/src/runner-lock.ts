import { randomBytes } from 'node:crypto';
import { link, readFile, rm, stat } from 'node:fs/promises';
import { hostname } from 'node:os';
import { dirname } from 'node:path';
import { createPrivateFile, ensurePrivateDir } from '@macstats/core/internal';

/** An unreadable lock file older than this is taken as damaged and replaced. */
const DAMAGED_MS = 10_000;

interface LockRecord {
  pid: number;
  host: string;
  token: string;
  since: string;
}

/** True when process `pid` of this host still runs. */
function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

async function readLock(file: string): Promise<LockRecord | undefined> {
  try {
    const value = JSON.parse(await readFile(file, 'utf8')) as Partial<LockRecord>;
    if (typeof value.pid === 'number' && typeof value.host === 'string' && typeof value.token === 'string')
      return value as LockRecord;
  } catch {
    // Missing, or cut while written: treated as free below.
  }
  return undefined;
}

/**
 * The lock that keeps one task runner per folder (`macstats start` and the dashboard share a
 * home): a file naming the process that holds it. A holder that died (kill -9) leaves it behind;
 * the next runner of the same host finds its process gone and takes it over.
 */
export interface RunnerLock {
  /** True when this runner holds the lock now (taking it when free or left by a dead process). */
  hold(): Promise<boolean>;
  /** Who holds it, as `pid <n> on <host>`, when another runner does. */
  holder(): Promise<string | undefined>;
  release(): Promise<void>;
}

/** A runner lock at `file` (e.g. `$MACSTATS_HOME/tasks/.runner.lock`). */
export function createRunnerLock(file: string): RunnerLock {
  const token = randomBytes(8).toString('hex');
  const host = hostname();
  async function other(): Promise<LockRecord | undefined> {
    const found = await readLock(file);
    if (!found || found.token === token) return undefined;
    // Another host's lock on a shared folder cannot be checked: it holds until removed.
    if (found.host !== host || alive(found.pid)) return found;
    return undefined;
  }
  return {
    async hold() {
      const found = await readLock(file);
      if (found?.token === token) return true;
      if (found && (found.host !== host || alive(found.pid))) return false;
      await ensurePrivateDir(dirname(file));
      if (found) await rm(file, { force: true });
      else {
        // Unreadable: a lock is written whole (linked in complete), so only a damaged one is old.
        const age = await stat(file).then(
          (info) => Date.now() - info.mtimeMs,
          () => undefined,
        );
        if (age !== undefined && age < DAMAGED_MS) return false;
        if (age !== undefined) await rm(file, { force: true });
      }
      const record: LockRecord = { pid: process.pid, host, token, since: new Date().toISOString() };
      // Written to a file of its own, then linked in: the lock appears complete or not at all.
      const draft = `${file}.${token}`;
      await createPrivateFile(draft, JSON.stringify(record));
      try {
        await link(draft, file);
        return true;
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code === 'EEXIST') return false;
        throw error;
      } finally {
        await rm(draft, { force: true });
      }
    },
    async holder() {
      const found = await other();
      return found ? `pid ${found.pid} on ${found.host}` : undefined;
    },
    async release() {
      if ((await readLock(file))?.token === token) await rm(file, { force: true });
    },
  };
}
