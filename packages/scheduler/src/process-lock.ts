import { randomUUID } from 'node:crypto';
import { link, readFile, rename, unlink } from 'node:fs/promises';
import { hostname, uptime } from 'node:os';
import { createPrivateFile } from '@macstats/core/internal';
import type { LeaderLock } from './scheduler-stores.js';

/** Who holds a {@link ProcessLock}, as written in the lock file. */
export interface LockHolder {
  pid: number;
  hostname: string;
  /** Random per lock; tells two holders in one process apart. */
  token: string;
  /** When the holder's machine booted (epoch ms); a lock from an earlier boot is stale. */
  bootTime: number;
  /** When the lock was taken (ISO). */
  acquiredAt: string;
}

/** Outcome of {@link ProcessLock.acquire}. */
export type LockAttempt = { acquired: true } | { acquired: false; holder: LockHolder | undefined };

/**
 * A lock file that one process holds at a time and that a dead holder does not keep: the file
 * names its holder's pid, host and boot time, and a lock whose process is gone (or whose
 * machine has rebooted since) is broken by the next process that asks.
 *
 * The file appears complete in one step (written to a temporary name, then hard-linked into
 * place, which fails if it exists), so no reader ever sees it half-written.
 */
export class ProcessLock implements LeaderLock {
  readonly path: string;
  readonly #token = randomUUID();
  #held = false;

  constructor(path: string) {
    this.path = path;
  }

  /** The lock file's path, for messages. */
  get description(): string {
    return this.path;
  }

  /** True while this instance holds the lock (as far as it knows; see {@link verify}). */
  get held(): boolean {
    return this.#held;
  }

  /** Takes the lock, breaking it first if its holder is dead. Never waits. */
  async acquire(): Promise<LockAttempt> {
    if (this.#held) return { acquired: true };
    const self: LockHolder = {
      pid: process.pid,
      hostname: hostname(),
      token: this.#token,
      bootTime: bootTime(),
      acquiredAt: new Date().toISOString(),
    };
    const temporary = `${this.path}.${this.#token}.tmp`;
    await createPrivateFile(temporary, `${JSON.stringify(self)}\n`);
    try {
      for (let attempt = 0; attempt < 3; attempt += 1) {
        try {
          await link(temporary, this.path);
          this.#held = true;
          return { acquired: true };
        } catch (error) {
          if (code(error) !== 'EEXIST') throw error;
        }
        const holder = await readLockFile(this.path);
        if (holder === 'missing') continue;
        if (holder !== 'invalid' && isAlive(holder)) return { acquired: false, holder };
        await this.#breakStale(holder === 'invalid' ? undefined : holder.token);
      }
      return { acquired: false, holder: await readHolder(this.path) };
    } finally {
      await unlink(temporary).catch(() => {});
    }
  }

  /** Whether the lock file still names this instance (someone may have deleted or broken it). */
  async verify(): Promise<boolean> {
    if (!this.#held) return false;
    const holder = await readHolder(this.path);
    this.#held = holder?.token === this.#token;
    return this.#held;
  }

  /** Gives the lock up; only removes the file if it is still this instance's. */
  async release(): Promise<void> {
    if (!this.#held) return;
    this.#held = false;
    const holder = await readHolder(this.path);
    if (holder?.token === this.#token) await unlink(this.path).catch(() => {});
  }

  /**
   * Moves the stale file aside under a unique name, then checks that what moved is the file
   * that was judged stale; if another process replaced it in between, puts it back.
   */
  async #breakStale(staleToken: string | undefined): Promise<void> {
    const aside = `${this.path}.stale-${this.#token}`;
    try {
      await rename(this.path, aside);
    } catch (error) {
      if (code(error) === 'ENOENT') return;
      throw error;
    }
    const moved = await readLockFile(aside);
    const movedToken = typeof moved === 'string' ? undefined : moved.token;
    if (movedToken !== staleToken) await link(aside, this.path).catch(() => {});
    await unlink(aside).catch(() => {});
  }
}

/** Reads the holder named in a lock file; `undefined` when it is missing or unreadable. */
export async function readHolder(path: string): Promise<LockHolder | undefined> {
  const holder = await readLockFile(path);
  return typeof holder === 'string' ? undefined : holder;
}

async function readLockFile(path: string): Promise<LockHolder | 'missing' | 'invalid'> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (error) {
    if (code(error) === 'ENOENT') return 'missing';
    throw error;
  }
  try {
    const holder = JSON.parse(text) as Partial<LockHolder>;
    if (typeof holder.pid === 'number' && typeof holder.token === 'string') return holder as LockHolder;
  } catch {
    // Not JSON: nobody following this protocol wrote it.
  }
  return 'invalid';
}

/**
 * Whether a holder may still be running. A lock from another host cannot be checked and
 * counts as alive; one from an earlier boot of this host is dead whatever its pid says.
 */
export function isAlive(holder: LockHolder): boolean {
  if (holder.hostname !== hostname()) return true;
  if (Math.abs(holder.bootTime - bootTime()) > 120_000) return false;
  if (holder.pid === process.pid) return true;
  try {
    process.kill(holder.pid, 0);
    return true;
  } catch (error) {
    // EPERM: the process exists but belongs to someone else.
    return code(error) === 'EPERM';
  }
}

function bootTime(): number {
  return Date.now() - uptime() * 1000;
}

function code(error: unknown): string | undefined {
  return (error as NodeJS.ErrnoException | undefined)?.code;
}
