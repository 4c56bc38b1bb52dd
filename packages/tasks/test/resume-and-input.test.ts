import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Tool } from '@macstats/core';
import type { FakeOllama } from '@macstats/testing';
import { afterEach, describe, expect, it } from 'vitest';
import { CUT_CALL_SENTENCE, createTaskStore, formatTaskFile, parseTaskFile } from '../src/index.js';
import { countingTool, runnerFor, scriptedModel, tempTasks } from './helpers.js';

let model: FakeOllama | undefined;
let cleanup: (() => Promise<void>) | undefined;
afterEach(async () => {
  await model?.close();
  await cleanup?.();
  model = undefined;
});

/** A SEND tool whose first run never finishes until its signal aborts (a stop mid-call). */
function hangingSend(): Tool & { runs: string[]; started: Promise<void> } {
  const runs: string[] = [];
  let markStarted = () => {};
  const started = new Promise<void>((resolve) => {
    markStarted = resolve;
  });
  return {
    name: 'SEND',
    description: 'Sends a message.',
    usage: 'SEND: <text>',
    labels: { sendsTo: 'mail:owner', configured: true },
    runs,
    started,
    run(argument, context) {
      runs.push(argument);
      markStarted();
      return new Promise((_, reject) =>
        context.signal.addEventListener('abort', () => reject(context.signal.reason)),
      );
    },
  };
}

describe('a task cut mid-step', () => {
  it('resumes at its step without running a finished call again nor repeating a cut send', async () => {
    const tasks = await tempTasks();
    cleanup = tasks.cleanup;
    model = await scriptedModel(['READ: the log', 'SEND: the log is fine']);
    const read = countingTool('READ', { private: true });
    const send = hangingSend();
    const first = runnerFor(tasks.dir, model, [read, send]);
    const task = await first.store.add({ instructions: 'Read the log and send me a line about it.' });
    await first.runner.start();
    await send.started;
    await first.runner.stop();
    const cut = await first.store.get(task.id);
    expect(cut?.state).toBe('running');
    expect(cut?.steps[0]?.calls.map((call) => call.status)).toEqual(['finished', 'started']);

    // After the restart the model asks for the same calls again, then ends the task.
    model.enqueue('READ: the log', 'SEND: the log is fine', 'TASK: done Sent.', 'Done.');
    const second = runnerFor(tasks.dir, model, [read, send]);
    await second.runner.runOnce();
    const done = await second.store.get(task.id);
    expect(done?.state).toBe('done');
    expect(done?.steps).toHaveLength(1);
    expect(read.runs).toEqual(['the log']);
    expect(send.runs).toEqual(['the log is fine']);
    const toolMessages =
      model.requests
        .at(-1)
        ?.messages.map((message) => message.content)
        .join('\n') ?? '';
    expect(toolMessages).toContain(CUT_CALL_SENTENCE);
  });
});

describe('bad input', () => {
  it('refuses empty instructions with one sentence', async () => {
    const tasks = await tempTasks();
    cleanup = tasks.cleanup;
    const store = createTaskStore({ dir: tasks.dir });
    await expect(store.add({ instructions: '  ' })).rejects.toThrow(
      'A task needs instructions: say what the agent should do.',
    );
  });

  it('refuses an unknown agent with one sentence', async () => {
    const tasks = await tempTasks();
    cleanup = tasks.cleanup;
    const store = createTaskStore({ dir: tasks.dir, agents: () => ['default', 'research'] });
    await expect(store.add({ instructions: 'Hi.', agent: 'nobody' })).rejects.toThrow(
      'There is no agent "nobody"; the agents are default, research.',
    );
  });

  it('refuses a dependency cycle at add, and fails the tasks a hand edit put in one', async () => {
    const tasks = await tempTasks();
    cleanup = tasks.cleanup;
    model = await scriptedModel(['TASK: done other', 'Done.']);
    const { store, runner } = runnerFor(tasks.dir, model, []);
    const a = await store.add({ instructions: 'A.' });
    const b = await store.add({ instructions: 'B.', after: [a.id] });
    const other = await store.add({ instructions: 'Unrelated.' });
    // A hand edit makes a wait for b.
    const file = join(tasks.dir, `${a.id}.md`);
    const parsed = parseTaskFile(await readFile(file, 'utf8'), 'a.md');
    if (!('task' in parsed)) throw new Error(parsed.problem);
    await writeFile(file, formatTaskFile({ ...parsed.task, after: [b.id] }));
    await expect(store.add({ instructions: 'C.', after: [a.id] })).rejects.toThrow(
      `Tasks ${a.id} → ${b.id} → ${a.id} wait for each other, so none of them could ever start.`,
    );
    await runner.runOnce();
    expect((await store.get(a.id))?.state).toBe('failed');
    expect((await store.get(b.id))?.error).toMatch(/wait for each other/);
    expect((await store.get(other.id))?.state).toBe('done');
  });

  it('refuses to wait for a task that does not exist', async () => {
    const tasks = await tempTasks();
    cleanup = tasks.cleanup;
    const store = createTaskStore({ dir: tasks.dir });
    await expect(store.add({ instructions: 'Later.', after: ['nope'] })).rejects.toThrow(
      'There is no task "nope" to wait for.',
    );
  });
});
