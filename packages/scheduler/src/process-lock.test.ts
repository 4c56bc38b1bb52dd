import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { readFile, writeFile } from 'node:fs/promises';
import { hostname, uptime } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { temporaryFolder } from '../test/helpers.js';
import { type LockHolder, ProcessLock, readHolder } from './process-lock.js';

let folder: { path: string; cleanup: () => Promise<void> };
let lockPath: string;
const children: ChildProcess[] = [];

beforeEach(async () => {
  folder = await temporaryFolder();
  lockPath = join(folder.path, 'scheduler.lock');
});

afterEach(async () => {
  for (const child of children.splice(0)) if (child.exitCode === null) child.kill('SIGKILL');
  await folder.cleanup();
});

function holder(pid: number, overrides: Partial<LockHolder> = {}): LockHolder {
  return {
    pid,
    hostname: hostname(),
    token: 'other',
    bootTime: Date.now() - uptime() * 1000,
    acquiredAt: new Date().toISOString(),
    ...overrides,
  };
}

async function startIdleProcess(): Promise<ChildProcess> {
  const child = spawn(process.execPath, ['-e', 'setInterval(() => {}, 1000)'], { stdio: 'ignore' });
  children.push(child);
  await once(child, 'spawn');
  return child;
}

describe('ProcessLock', () => {
  it('is taken by the first instance and refused to a second one, naming the holder', async () => {
    const first = new ProcessLock(lockPath);
    const second = new ProcessLock(lockPath);
    expect(await first.acquire()).toEqual({ acquired: true });
    const attempt = await second.acquire();
    expect(attempt.acquired).toBe(false);
    expect(attempt.acquired ? undefined : attempt.holder?.pid).toBe(process.pid);
    await first.release();
    expect(await second.acquire()).toEqual({ acquired: true });
  });

  it('is refused while another live process holds it and taken once that process is killed', async () => {
    const child = await startIdleProcess();
    await writeFile(lockPath, JSON.stringify(holder(child.pid ?? 0)));
    const lock = new ProcessLock(lockPath);
    expect((await lock.acquire()).acquired).toBe(false);
    child.kill('SIGKILL');
    await once(child, 'exit');
    expect(await lock.acquire()).toEqual({ acquired: true });
    expect((await readHolder(lockPath))?.pid).toBe(process.pid);
  });

  it('breaks a lock left by a process from an earlier boot even if its pid is alive now', async () => {
    await writeFile(
      lockPath,
      JSON.stringify(holder(process.ppid, { bootTime: Date.now() - uptime() * 1000 - 86_400_000 })),
    );
    expect(await new ProcessLock(lockPath).acquire()).toEqual({ acquired: true });
  });

  it('breaks a lock file that is not JSON', async () => {
    await writeFile(lockPath, 'garbage');
    expect(await new ProcessLock(lockPath).acquire()).toEqual({ acquired: true });
  });

  it('respects a lock held on another host, which it cannot check', async () => {
    await writeFile(lockPath, JSON.stringify(holder(999_999, { hostname: 'some-other-host' })));
    expect((await new ProcessLock(lockPath).acquire()).acquired).toBe(false);
  });

  it("notices when its lock file was taken over, and does not delete the new holder's file", async () => {
    const lock = new ProcessLock(lockPath);
    await lock.acquire();
    await writeFile(lockPath, JSON.stringify(holder(process.ppid)));
    expect(await lock.verify()).toBe(false);
    await lock.release();
    expect(JSON.parse(await readFile(lockPath, 'utf8')).token).toBe('other');
  });
});
