import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { bundleScript } from '@macstats/testing';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createScheduler } from '../src/scheduler.js';
import { createHarness, type Harness } from './harness.js';
import { writeSchedules } from './helpers.js';

const fixture = fileURLToPath(new URL('./fixtures/scheduler-process.ts', import.meta.url));
let harness: Harness;
let child: ChildProcess | undefined;
// The fixture compiled once, ahead of the tests, and run with plain node: no tsx compiling it
// while a test waits for its first line.
let script: string;
beforeAll(async () => {
  script = await bundleScript(fixture);
});

afterEach(async () => {
  if (child !== undefined && child.exitCode === null && child.signalCode === null) {
    child.kill('SIGKILL');
    await once(child, 'exit');
  }
  child = undefined;
  await harness.cleanup();
});

/** Starts the fixture on a schedules file; resolves with the process and a reader of its lines. */
async function startSchedulerProcess(file: string) {
  const started = spawn(process.execPath, [script, file], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  child = started;
  const lines = createInterface({ input: started.stdout! })[Symbol.asyncIterator]();
  const nextLine = async () => {
    const { value, done } = await lines.next();
    if (done) throw new Error('the scheduler process exited');
    return value as string;
  };
  const rest = async () => {
    const remaining: string[] = [];
    for (let line = await lines.next(); !line.done; line = await lines.next())
      remaining.push(line.value as string);
    return remaining;
  };
  return { process: started, nextLine, rest };
}

async function kill(process: ChildProcess): Promise<void> {
  process.kill('SIGKILL');
  await once(process, 'exit');
}

describe('one scheduler per folder', () => {
  it('keeps a second scheduler in the same process from firing until the first one stops', async () => {
    harness = await createHarness([{ id: 'hourly', cron: '0 * * * *', task: 'x' }], '2025-06-06T08:30:00Z', {
      lockRetryMs: 30_000,
    });
    const secondCalls: string[] = [];
    const second = createScheduler({
      file: harness.file,
      clock: harness.clock,
      timezone: 'UTC',
      watch: false,
      lockRetryMs: 30_000,
      maxSleepMs: 86_400_000,
      reloadIntervalMs: 3_600_000,
      execute: async (schedule) => {
        secondCalls.push(`${schedule.id} ${new Date(harness.clock.now()).toISOString()}`);
        return 'second';
      },
    });
    const first = harness.scheduler;
    harness.clock.settle = async () => {
      await first.whenIdle();
      await second.whenIdle();
    };
    await first.start();
    await second.start();
    expect([first.isLeader, second.isLeader]).toEqual([true, false]);

    await harness.clock.advanceTo('2025-06-06T10:00:00Z');
    expect(harness.calls).toHaveLength(2);
    expect(secondCalls).toEqual([]);

    await first.stop();
    await harness.clock.advanceTo('2025-06-06T10:00:30Z');
    expect(second.isLeader).toBe(true);
    await harness.clock.advanceTo('2025-06-06T11:00:00Z');
    expect(secondCalls).toEqual(['hourly 2025-06-06T11:00:00.000Z']);
    await second.stop();
  });

  it('waits while a live scheduler process holds the folder and takes over once that process dies', async () => {
    harness = await createHarness([{ id: 'later', cron: '0 0 1 1 *', task: 'x' }], new Date().toISOString(), {
      lockRetryMs: 30_000,
    });
    const other = await startSchedulerProcess(harness.file);
    expect(await other.nextLine()).toBe('leader');

    await harness.scheduler.start();
    expect(harness.scheduler.isLeader).toBe(false);
    expect(harness.events).toContainEqual({
      type: 'lock-waiting',
      holder: expect.objectContaining({ pid: other.process.pid }),
    });
    await harness.clock.advance(30_000);
    expect(harness.scheduler.isLeader).toBe(false);

    await kill(other.process);
    await harness.clock.advance(30_000);
    expect(harness.scheduler.isLeader).toBe(true);
    expect(harness.events.at(-1)).toEqual(expect.objectContaining({ type: 'lock-acquired' }));
  });

  it('does not re-run a one-shot whose process died mid-run, and records the run as interrupted', async () => {
    const due = new Date(Date.now() - 60_000).toISOString();
    harness = await createHarness([{ id: 'once', at: due, task: 'x' }], new Date().toISOString());
    const other = await startSchedulerProcess(harness.file);
    expect(await other.nextLine()).toBe('leader');
    expect(await other.nextLine()).toBe('running once');
    await kill(other.process);

    await harness.scheduler.start();
    await harness.scheduler.whenIdle();
    expect(harness.scheduler.isLeader).toBe(true);
    expect(harness.calls).toEqual([]);
    expect(await harness.runs()).toEqual([
      expect.objectContaining({ id: 'once', due: new Date(due).toISOString(), outcome: 'interrupted' }),
    ]);
    const state = JSON.parse(await readFile(join(harness.folder, 'scheduler-state.json'), 'utf8'));
    expect(state.schedules.once).toMatchObject({ done: true });
    expect(state.schedules.once.running).toBeUndefined();
  });

  it('fires nothing from a second process started while the first is alive', async () => {
    harness = await createHarness([], new Date().toISOString());
    await writeSchedules(harness.file, [
      { id: 'now', at: new Date(Date.now() - 1_000).toISOString(), task: 'x' },
    ]);
    await harness.scheduler.start();
    await harness.scheduler.whenIdle();
    expect(harness.calls.map((call) => call.id)).toEqual(['now']);

    const other = await startSchedulerProcess(harness.file);
    expect(await other.nextLine()).toBe(`waiting ${process.pid}`);
    const exited = once(other.process, 'exit');
    other.process.kill('SIGTERM');
    expect(await other.rest()).toEqual([]);
    expect((await exited)[0]).toBe(0);
    expect(harness.calls).toHaveLength(1);
  });
});
