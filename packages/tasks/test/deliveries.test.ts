import type { FakeOllama } from '@macstats/testing';
import { afterEach, describe, expect, it } from 'vitest';
import { createTaskTool, type Task, type TaskDelivery } from '../src/index.js';
import { fetchTool, loopbackWeb, runnerFor, scriptedModel, tempTasks } from './helpers.js';

let model: FakeOllama | undefined;
let cleanup: (() => Promise<void>) | undefined;
afterEach(async () => {
  await model?.close();
  await cleanup?.();
  model = undefined;
});

async function setup(replies: string[]) {
  const tasks = await tempTasks();
  cleanup = tasks.cleanup;
  model = await scriptedModel(replies);
  return { dir: tasks.dir, model };
}

const CHANNEL = 'discord:123456789012345678';

describe("a task's posts where it reports to", () => {
  it('records the result as a pending post in the write that ends the task', async () => {
    const { dir, model } = await setup(['TASK: done The backup finished.', 'Done.']);
    const { store, runner } = runnerFor(dir, model, []);
    const task = await store.add({
      instructions: 'Check the backup.',
      owner: { by: 'cli', reportTo: CHANNEL },
    });
    await runner.runOnce();
    const ended = await store.get(task.id);
    expect(ended?.state).toBe('done');
    expect(ended?.deliveries).toEqual([
      expect.objectContaining({
        to: CHANNEL,
        state: 'done',
        text: `Task ${task.id} done: Check the backup.\nThe backup finished`,
        outside: false,
      }),
    ]);
    expect(ended?.deliveries?.[0]?.id).toMatch(/^[\w-]{20}$/);
    expect(ended?.deliveries?.[0]?.since).toBe(ended?.updatedAt);
  });

  it('posts a pending result once and clears it, and a later runner does not post it again', async () => {
    const { dir, model } = await setup(['TASK: done All good.', 'Done.']);
    const posted: TaskDelivery[] = [];
    const deliver = async (_task: Task, delivery: TaskDelivery) => {
      posted.push(delivery);
      return true;
    };
    const { store, runner } = runnerFor(dir, model, [], { deliver });
    const task = await store.add({
      instructions: 'Say all is good.',
      owner: { by: 'cli', reportTo: CHANNEL },
    });
    await runner.runOnce();
    await runner.runOnce();
    expect(posted.map((delivery) => delivery.state)).toEqual(['done']);
    expect((await store.get(task.id))?.deliveries).toBeUndefined();
    const { runner: restarted } = runnerFor(dir, model, [], { deliver });
    await restarted.runOnce();
    expect(posted).toHaveLength(1);
  });

  it('keeps a post whose delivery failed, and the next runner posts it with the same id', async () => {
    const { dir, model } = await setup(['TASK: fail The disk is full.', 'Failed.']);
    const { store, runner } = runnerFor(dir, model, [], {
      deliver: async () => {
        throw new Error('Discord is down');
      },
    });
    const task = await store.add({
      instructions: 'Free some space.',
      owner: { by: 'cli', reportTo: CHANNEL },
    });
    await runner.runOnce();
    await runner.runOnce();
    const pending = (await store.get(task.id))?.deliveries ?? [];
    expect(pending.map((delivery) => delivery.state)).toEqual(['failed']);
    const posted: TaskDelivery[] = [];
    const { runner: restarted } = runnerFor(dir, model, [], {
      deliver: async (_task, delivery) => {
        posted.push(delivery);
        return true;
      },
    });
    await restarted.runOnce();
    expect(posted.map((delivery) => delivery.id)).toEqual([pending[0]?.id]);
    expect(posted[0]?.text).toBe(`Task ${task.id} failed: Free some space.\nThe disk is full.`);
    expect((await store.get(task.id))?.deliveries).toBeUndefined();
  });

  it('records each state change with state_changes and nothing with silent', async () => {
    const { dir, model } = await setup(['TASK: wait 10m', 'Waiting.', 'TASK: done Fine.', 'Done.']);
    const { store, runner } = runnerFor(dir, model, []);
    const chatty = await store.add({
      instructions: 'Wait, then finish.',
      owner: { by: 'cli', reportTo: CHANNEL, notify: 'state_changes' },
    });
    await runner.runOnce();
    await store.update(chatty.id, (task) => {
      task.wakeAt = new Date(0).toISOString();
    });
    await runner.runOnce();
    expect((await store.get(chatty.id))?.deliveries?.map((delivery) => delivery.state)).toEqual([
      'running',
      'waiting',
      'running',
      'done',
    ]);
    const quiet = await store.add({
      instructions: 'Say nothing.',
      owner: { by: 'cli', reportTo: CHANNEL, notify: 'silent' },
    });
    await store.update(quiet.id, (task) => {
      task.state = 'done';
    });
    expect((await store.get(quiet.id))?.deliveries).toBeUndefined();
  });

  it('refuses a notify policy it does not know', async () => {
    const { dir, model } = await setup([]);
    const { store } = runnerFor(dir, model, []);
    await expect(
      store.add({ instructions: 'Hi.', owner: { by: 'cli', notify: 'loud' as 'silent' } }),
    ).rejects.toThrow('"loud" is not a notify policy: use done_only, state_changes, silent.');
  });

  it('marks the post of a task that read outside content, so it goes without link previews', async () => {
    const web = await loopbackWeb(() => 'A page about backups.');
    try {
      const { dir, model } = await setup([`FETCH: ${web.base}/page`, 'TASK: done Read it.', 'Done.']);
      const { store, runner } = runnerFor(dir, model, [fetchTool()]);
      const task = await store.add({
        instructions: 'Read the page.',
        owner: { by: 'cli', reportTo: CHANNEL },
      });
      await runner.runOnce();
      await runner.runOnce();
      const ended = await store.get(task.id);
      expect(ended?.state).toBe('done');
      expect(ended?.deliveries?.[0]?.outside).toBe(true);
    } finally {
      await web.close();
    }
  });

  it('gives a task added from a Discord answer that channel to report to', async () => {
    const { dir, model } = await setup([]);
    const { store } = runnerFor(dir, model, []);
    const tool = createTaskTool({ store });
    const result = await tool.run('add Summarise the release notes.', {
      signal: new AbortController().signal,
      conversationId: 'discord-42',
    });
    const id =
      String(typeof result === 'string' ? result : result.text).match(/Added task (\S+)\./)?.[1] ?? '';
    expect((await store.get(id))?.owner).toEqual({ by: 'model', reportTo: 'discord:42' });
  });
});
