import { spawnSync } from 'node:child_process';
import { writeFile } from 'node:fs/promises';
import { hostname } from 'node:os';
import { dirname, join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createRunnerLock } from '../src/index.js';
import { tempTasks } from './helpers.js';

let cleanup: (() => Promise<void>) | undefined;
afterEach(async () => {
  await cleanup?.();
});

async function lockFile(): Promise<string> {
  const tasks = await tempTasks();
  cleanup = tasks.cleanup;
  return join(dirname(tasks.dir), 'tasks', '.runner.lock');
}

describe('the runner lock: one task runner per home', () => {
  it('is held by one runner at a time, and free again once released', async () => {
    const file = await lockFile();
    const first = createRunnerLock(file);
    const second = createRunnerLock(file);
    expect(await first.hold()).toBe(true);
    expect(await second.hold()).toBe(false);
    expect(await second.holder()).toBe(`pid ${process.pid} on ${hostname()}`);
    expect(await first.hold()).toBe(true);
    await first.release();
    expect(await second.hold()).toBe(true);
    expect(await first.hold()).toBe(false);
  });

  it('is taken over from a process that died without releasing it (kill -9)', async () => {
    const file = await lockFile();
    const dead = spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))']);
    const pid = Number(dead.stdout.toString());
    const { mkdir } = await import('node:fs/promises');
    await mkdir(dirname(file), { recursive: true });
    await writeFile(file, JSON.stringify({ pid, host: hostname(), token: 'gone', since: '2026-01-01' }));
    const lock = createRunnerLock(file);
    expect(await lock.holder()).toBeUndefined();
    expect(await lock.hold()).toBe(true);
  });
});
