import { spawnSync } from 'node:child_process';
import { writeFile } from 'node:fs/promises';
import { hostname } from 'node:os';
import { dirname, join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createRunnerLock } from '../src/index.js';
import { runnerFor, scriptedModel, tempTasks } from './helpers.js';

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

  it('is taken by exactly one of two runners that ask at the same moment', async () => {
    const file = await lockFile();
    for (let round = 0; round < 50; round += 1) {
      const locks = [createRunnerLock(file), createRunnerLock(file), createRunnerLock(file)];
      const held = await Promise.all(locks.map((lock) => lock.hold()));
      expect(held.filter(Boolean)).toHaveLength(1);
      await Promise.all(locks.map((lock) => lock.release()));
    }
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

describe('two runners over one folder', () => {
  it('runs each step in the runner holding the lock; the other takes over once it stops', async () => {
    const file = await lockFile();
    const dir = dirname(file);
    const model = await scriptedModel(['TASK: done First.', 'Done.', 'TASK: done Second.', 'Done.']);
    try {
      const a = runnerFor(dir, model, [], { lockFile: file, pollMs: 50 });
      const b = runnerFor(dir, model, [], { lockFile: file, pollMs: 50 });
      await a.runner.start();
      await b.runner.start();
      const first = await a.store.add({ instructions: 'First.' });
      await expect.poll(async () => (await a.store.get(first.id))?.state, { timeout: 30_000 }).toBe('done');
      const starts = (runner: typeof a) =>
        runner.events.filter((event) => event.type === 'step-start').length;
      // Whichever took the lock ran the step; the other ran none.
      expect([starts(a), starts(b)].sort()).toEqual([0, 1]);
      const [holder, other] = starts(a) === 1 ? [a, b] : [b, a];

      await holder.runner.stop();
      const second = await other.store.add({ instructions: 'Second.' });
      await expect
        .poll(async () => (await other.store.get(second.id))?.state, { timeout: 30_000 })
        .toBe('done');
      expect(starts(other)).toBe(1);
      await other.runner.stop();
    } finally {
      await model.close();
    }
  });
});
