import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { FakeOllama } from '@macstats/testing';
import { afterEach, describe, expect, it } from 'vitest';
import { countingTool, manualClock, runnerFor, scriptedModel, tempTasks } from './helpers.js';

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

describe('the task runner', () => {
  it('finishes a three-step task with its result', async () => {
    const { dir, model } = await setup([
      'ECHO: first part',
      'The first part is done.',
      'ECHO: second part',
      'The second part is done.',
      'TASK: done Both parts were done.',
      'Finished.',
    ]);
    const echo = countingTool('ECHO');
    const { store, runner } = runnerFor(dir, model, [echo]);
    const task = await store.add({ instructions: 'Do the first part, then the second.' });
    for (let step = 0; step < 3; step += 1) await runner.runOnce();
    const done = await store.get(task.id);
    expect(done?.state).toBe('done');
    expect(done?.result).toBe('Both parts were done');
    expect(done?.steps).toHaveLength(3);
    expect(echo.runs).toEqual(['first part', 'second part']);
    expect(done?.steps[1]?.calls.map((call) => call.argument)).toEqual(['second part']);
  });

  it('ends a task that spends its step budget as failed, with a sentence', async () => {
    const { dir, model } = await setup(['Still working on it.', 'Still working on it.']);
    const { store, runner, events } = runnerFor(dir, model, []);
    const task = await store.add({ instructions: 'Never finish.', budget: { steps: 2 } });
    await runner.runOnce();
    await runner.runOnce();
    const failed = await store.get(task.id);
    expect(failed?.state).toBe('failed');
    expect(failed?.error).toBe('It used its whole budget of 2 steps without finishing.');
    expect(events.some((event) => event.type === 'task-end' && event.task.state === 'failed')).toBe(true);
  });

  it('ends a task past its token budget as failed', async () => {
    const { dir, model } = await setup(['Working.']);
    const { store, runner } = runnerFor(dir, model, []);
    const task = await store.add({ instructions: 'Spend tokens.', budget: { tokens: 5 } });
    await runner.runOnce();
    expect((await store.get(task.id))?.error).toMatch(/^It used \d+ tokens, past its budget of 5\.$/);
  });

  it('waits for dependencies and wake times', async () => {
    const clock = manualClock();
    const { dir, model } = await setup([
      'TASK: wait 10m',
      'Waiting.',
      'TASK: done first',
      'Done.',
      'TASK: done second',
      'Done.',
    ]);
    const { store, runner } = runnerFor(dir, model, [], { now: clock.now });
    const first = await store.add({ instructions: 'Check back in ten minutes.' });
    const second = await store.add({ instructions: 'Runs after the first.', after: [first.id] });
    expect(await runner.runOnce()).toBe(1);
    expect((await store.get(first.id))?.state).toBe('waiting');
    expect((await store.get(first.id))?.wakeAt).toBe('2026-11-26T09:10:00.000Z');
    expect(await runner.runOnce()).toBe(0);
    clock.advance(10 * 60_000);
    expect(await runner.runOnce()).toBe(1);
    expect((await store.get(first.id))?.state).toBe('done');
    expect((await store.get(second.id))?.steps).toHaveLength(0);
    await runner.runOnce();
    expect((await store.get(second.id))?.result).toBe('second');
  });

  it('fails a task whose dependency failed, with a sentence', async () => {
    const { dir, model } = await setup(['TASK: fail The page is gone.', 'Failed.']);
    const { store, runner } = runnerFor(dir, model, []);
    const first = await store.add({ instructions: 'Read the page.' });
    const second = await store.add({ instructions: 'Summarise it.', after: [first.id] });
    await runner.runOnce();
    await runner.runOnce();
    expect((await store.get(first.id))?.error).toBe('The page is gone.');
    const blocked = await store.get(second.id);
    expect(blocked?.state).toBe('failed');
    expect(blocked?.error).toBe(`Task ${first.id}, which it waits for, failed, so it cannot start.`);
  });

  it('keeps running other tasks when a task file is broken, and says so once', async () => {
    const { dir, model } = await setup(['TASK: done fine', 'Done.']);
    const { store, runner, events } = runnerFor(dir, model, []);
    const good = await store.add({ instructions: 'A good task.' });
    await writeFile(join(dir, 'broken.md'), '# Broken\n\n## Record\n\n```json\n{ "id": "broken", \n```\n');
    await runner.runOnce();
    await runner.runOnce();
    expect((await store.get(good.id))?.state).toBe('done');
    const problems = events.filter((event) => event.type === 'problem');
    expect(problems).toHaveLength(1);
    expect(problems[0]).toMatchObject({
      message: expect.stringMatching(
        /^The task file broken\.md has a record that is not valid JSON .*, so it is skipped\.$/,
      ),
    });
  });
});
