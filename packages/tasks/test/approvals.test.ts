import type { FakeOllama } from '@macstats/testing';
import { afterEach, describe, expect, it } from 'vitest';
import {
  cancelTask,
  decideApproval,
  pendingApproval,
  resumeTask,
  TASK_DEFAULTS,
  type TaskAskOwner,
} from '../src/index.js';
import {
  countingTool,
  fetchTool,
  loopbackWeb,
  manualClock,
  runnerFor,
  scriptedModel,
  tempTasks,
} from './helpers.js';

let model: FakeOllama | undefined;
let web: Awaited<ReturnType<typeof loopbackWeb>> | undefined;
let cleanup: (() => Promise<void>) | undefined;
afterEach(async () => {
  await model?.close();
  await web?.close();
  await cleanup?.();
  model = undefined;
  web = undefined;
});

/** A task whose first step reads a page, then asks to save a note: a persist after outside content. */
async function setup() {
  const tasks = await tempTasks();
  cleanup = tasks.cleanup;
  web = await loopbackWeb(() => 'The price is 180.');
  model = await scriptedModel();
  const save = countingTool('SAVE', { persists: true });
  const tools = [fetchTool(), save];
  model.enqueue(`FETCH: ${web.base}/page`, 'SAVE: price 180');
  return { dir: tasks.dir, web, model, save, tools };
}

/** What the resumed step asks: the same page (replayed), the same save, then the end. */
function resumeScript(model: FakeOllama): void {
  model.enqueue(`FETCH: ${web?.base}/page`, 'SAVE: price 180', 'TASK: done Saved the price.', 'Done.');
}

describe("a step's call that needs approval", () => {
  it('records a pending approval, waits with a sentence, and runs that exact call once after the owner approves, across a restart', async () => {
    const { dir, model, save, tools } = await setup();
    const clock = manualClock();
    const first = runnerFor(dir, model, tools, { now: clock.now });
    const task = await first.store.add({ instructions: 'Read the page and save its price.' });
    await first.runner.runOnce();
    const waiting = await first.store.get(task.id);
    expect(waiting?.state).toBe('waiting');
    const pending = waiting ? pendingApproval(waiting) : undefined;
    expect(pending).toMatchObject({ step: 1, tool: 'SAVE', argument: 'price 180', rule: 'persist' });
    expect(pending?.expiresAt).toBe(
      new Date(clock.now().getTime() + TASK_DEFAULTS.approvalTtlMs).toISOString(),
    );
    expect(save.runs).toEqual([]);
    // Waiting for the owner: another pass asks the model nothing.
    const requests = model.requests.length;
    await first.runner.runOnce();
    expect(model.requests.length).toBe(requests);

    const decided = await decideApproval(first.store, task.id, { decision: 'approved', by: 'cli' });
    expect('task' in decided && decided.task.state).toBe('open');
    // A restart: a new runner over the same files resumes the step.
    resumeScript(model);
    const second = runnerFor(dir, model, tools, { now: clock.now });
    await second.runner.runOnce();
    const done = await second.store.get(task.id);
    expect(done?.state).toBe('done');
    expect(save.runs).toEqual(['price 180']);
    expect(done?.approvals?.[0]).toMatchObject({ decision: 'approved', decidedBy: 'cli' });
    expect(done?.steps).toHaveLength(1);
  });

  it('refuses the call when the owner denies it, and the model reads the refusal', async () => {
    const { dir, model, save, tools } = await setup();
    const { store, runner } = runnerFor(dir, model, tools);
    const task = await store.add({ instructions: 'Read the page and save its price.' });
    await runner.runOnce();
    await decideApproval(store, task.id, { decision: 'denied', by: 'dashboard' });
    resumeScript(model);
    await runner.runOnce();
    expect(save.runs).toEqual([]);
    const after = await store.get(task.id);
    expect(after?.steps[0]?.calls.map((call) => call.tool)).toEqual(['FETCH', 'TASK']);
    const refused = model.requests.at(-2)?.messages.at(-1)?.content ?? '';
    expect(refused).toContain('The user did not approve it.');
  });

  it('refuses the call with a note once the approval expires', async () => {
    const { dir, model, save, tools } = await setup();
    const clock = manualClock();
    const { store, runner } = runnerFor(dir, model, tools, { now: clock.now, approvalTtlMs: 60_000 });
    const task = await store.add({ instructions: 'Read the page and save its price.' });
    await runner.runOnce();
    expect((await store.get(task.id))?.state).toBe('waiting');
    clock.advance(61_000);
    resumeScript(model);
    await runner.runOnce();
    const after = await store.get(task.id);
    expect(save.runs).toEqual([]);
    expect(after?.approvals?.[0]).toMatchObject({ decision: 'expired', decidedBy: 'runner' });
    expect(after?.notes.join('\n')).toContain('did not answer the approval for SAVE');
    expect(after?.state).toBe('done');
  });

  it("asks the owner through askOwner once, and the owner's answer resumes the task", async () => {
    const { dir, model, save, tools } = await setup();
    const asked: string[] = [];
    let answer: (value: { decision: 'approved'; by: string }) => void = () => {};
    const askOwner: TaskAskOwner = (task, approval) => {
      asked.push(`${task.id} ${approval.tool}`);
      return new Promise((resolve) => {
        answer = resolve;
      });
    };
    const { store, runner } = runnerFor(dir, model, tools, { askOwner });
    const task = await store.add({ instructions: 'Read the page and save its price.' });
    await runner.runOnce();
    await runner.runOnce();
    expect(asked).toEqual([`${task.id} SAVE`]);
    answer({ decision: 'approved', by: 'discord:42' });
    await expect.poll(async () => (await store.get(task.id))?.state).toBe('open');
    resumeScript(model);
    await runner.runOnce();
    expect(save.runs).toEqual(['price 180']);
    expect((await store.get(task.id))?.approvals?.[0]?.decidedBy).toBe('discord:42');
  });

  it('answers a second decision with a sentence and changes nothing', async () => {
    const { dir, model, tools } = await setup();
    const { store, runner } = runnerFor(dir, model, tools);
    const task = await store.add({ instructions: 'Read the page and save its price.' });
    await runner.runOnce();
    await decideApproval(store, task.id, { decision: 'denied', by: 'cli' });
    const again = await decideApproval(store, task.id, { decision: 'approved', by: 'cli' });
    expect(again).toEqual({ refusal: `Task ${task.id} waits for no approval.` });
    expect((await store.get(task.id))?.approvals?.[0]?.decision).toBe('denied');
  });
});

describe('cancelling a task that waits for approval', () => {
  it('denies the approval with it, so a resume refuses that call', async () => {
    const { dir, model, save, tools } = await setup();
    const { store, runner } = runnerFor(dir, model, tools);
    const task = await store.add({ instructions: 'Read the page and save its price.' });
    await runner.runOnce();
    const cancelled = await cancelTask(store, task.id);
    expect('task' in cancelled && cancelled.task.approvals?.[0]).toMatchObject({
      decision: 'denied',
      decidedBy: 'cancel',
    });
    expect('task' in (await resumeTask(store, task.id))).toBe(true);
    resumeScript(model);
    await runner.runOnce();
    expect(save.runs).toEqual([]);
    expect((await store.get(task.id))?.state).toBe('done');
  });
});
