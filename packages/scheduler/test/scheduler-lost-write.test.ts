import { mkdir, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { LeaderLock } from '../src/scheduler-stores.js';
import { createHarness, type Harness } from './harness.js';
import { deferred } from './helpers.js';

let harness: Harness | undefined;
afterEach(async () => {
  await harness?.cleanup();
  harness = undefined;
});

/** A lock held until `held` says otherwise, as a lease another host took over would be. */
function switchableLock(): LeaderLock & { held: boolean } {
  return {
    description: 'a test lease',
    held: true,
    async acquire() {
      return this.held ? { acquired: true } : { acquired: false, holder: undefined };
    },
    async verify() {
      return this.held;
    },
    async release() {},
  };
}

/** Runs one manual run of `news` whose state write fails (the state file's place is a folder). */
async function runWithFailingWrite(lock: LeaderLock & { held: boolean }, holdsAfter: boolean) {
  const gate = deferred<string>();
  harness = await createHarness([{ id: 'news', cron: '0 9 * * *', task: 'x' }], '2025-06-06T08:00:00Z', {
    task: () => gate.promise,
    lock,
  });
  await harness.scheduler.start();
  const finished = harness.scheduler.runNow('news');
  await harness.clock.settle();
  const stateFile = join(harness.folder, 'scheduler-state.json');
  await rm(stateFile, { force: true });
  await mkdir(stateFile);
  lock.held = holdsAfter;
  gate.resolve('done');
  await finished;
  await harness.scheduler.whenIdle();
  return harness;
}

describe('a run whose state cannot be written', () => {
  it('is delivered by a scheduler that still holds the lock (a full disk)', async () => {
    const done = await runWithFailingWrite(switchableLock(), true);
    expect(done.deliveries.map((delivery) => delivery.result.text)).toEqual(['done']);
  });

  it('is not delivered by one whose lock another host has taken: that host records it as interrupted', async () => {
    const done = await runWithFailingWrite(switchableLock(), false);
    expect(done.deliveries).toEqual([]);
  });
});
