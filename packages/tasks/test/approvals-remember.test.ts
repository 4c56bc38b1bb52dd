import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { APPROVAL_RULES_FILE, createApprovalRuleStore } from '@macstats/core';
import { afterEach, describe, expect, it } from 'vitest';
import { decideApproval, pendingApproval } from '../src/index.js';
import { countingTool, fetchTool, loopbackWeb, runnerFor, scriptedModel, tempTasks } from './helpers.js';

const closers: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const close of closers.splice(0).reverse()) await close();
});

async function started() {
  const tasks = await tempTasks();
  const model = await scriptedModel();
  const home = await mkdtemp(join(tmpdir(), 'task-rules-'));
  closers.push(
    tasks.cleanup,
    () => model.close(),
    () => rm(home, { recursive: true, force: true }),
  );
  return { dir: tasks.dir, model, rules: createApprovalRuleStore(join(home, APPROVAL_RULES_FILE)) };
}

/** PAGE brings outside content and private data; POST sends to a server the user configured. */
function sendTools() {
  const page = countingTool('PAGE', { outside: true, private: true });
  const post = countingTool('POST', { sendsTo: 'mcp:notes/post' });
  return { post, tools: [page, post] };
}

describe("a task owner's remembered approvals", () => {
  it('"This task": a later call of the same scope in the task runs without asking again', async () => {
    const { dir, model, rules } = await started();
    const web = await loopbackWeb(() => 'The price is 180.');
    closers.push(() => web.close());
    const save = countingTool('SAVE', { persists: true });
    const { store, runner } = runnerFor(dir, model, [fetchTool(), save], { approvalRules: rules });
    model.enqueue(`FETCH: ${web.base}/page`, 'SAVE: price 180');
    const task = await store.add({ instructions: 'Save the price, twice.' });
    await runner.runOnce();
    const waiting = await store.get(task.id);
    expect(pendingApproval(waiting!)?.scope).toMatchObject({
      tool: 'SAVE',
      rule: 'persist',
      remember: 'conversation',
    });
    await decideApproval(store, task.id, { decision: 'approved', by: 'cli', remember: 'task' });
    model.enqueue(
      `FETCH: ${web.base}/page`,
      'SAVE: price 180',
      'SAVE: price 181',
      'TASK: done Saved.',
      'Done.',
    );
    await runner.runOnce();
    const done = await store.get(task.id);
    expect(done?.state).toBe('done');
    expect(save.runs).toEqual(['price 180', 'price 181']);
    expect(done?.approvals).toHaveLength(1);
    expect(done?.approvals?.[0]).toMatchObject({ decision: 'approved', remember: 'task' });
    // Held by the task alone: no rule is saved.
    expect(await rules.list()).toEqual([]);
  });

  it('narrows "Always" on a persisting call to this task: no standing rule lets a later page plant state', async () => {
    const { dir, model, rules } = await started();
    const web = await loopbackWeb(() => 'The price is 180.');
    closers.push(() => web.close());
    const { store, runner } = runnerFor(dir, model, [fetchTool(), countingTool('SAVE', { persists: true })], {
      approvalRules: rules,
    });
    model.enqueue(`FETCH: ${web.base}/page`, 'SAVE: price 180');
    const task = await store.add({ instructions: 'Save the price.' });
    await runner.runOnce();
    const decided = await decideApproval(store, task.id, {
      decision: 'approved',
      by: 'cli',
      remember: 'always',
    });
    expect('task' in decided && decided.task.approvals?.[0]?.remember).toBe('task');
    model.enqueue(`FETCH: ${web.base}/page`, 'SAVE: price 180', 'TASK: done Saved.', 'Done.');
    await runner.runOnce();
    expect(await rules.list()).toEqual([]);
  });

  it('"Always" on a send the user configured is saved as a rule: the next task\'s same call runs without asking', async () => {
    const { dir, model, rules } = await started();
    const { post, tools } = sendTools();
    const { store, runner } = runnerFor(dir, model, tools, { approvalRules: rules });
    model.enqueue('PAGE: files', 'POST: hello');
    const first = await store.add({ instructions: 'Post the files.' });
    await runner.runOnce();
    expect(pendingApproval((await store.get(first.id))!)?.scope).toMatchObject({ remember: 'always' });
    await decideApproval(store, first.id, { decision: 'approved', by: 'dashboard', remember: 'always' });
    model.enqueue('PAGE: files', 'POST: hello', 'TASK: done Posted.', 'Done.');
    await runner.runOnce();
    expect(await rules.list()).toMatchObject([{ tool: 'POST', rule: 'send', target: 'mcp:notes/post' }]);
    model.enqueue('PAGE: more files', 'POST: again', 'TASK: done Posted.', 'Done.');
    const second = await store.add({ instructions: 'Post more files.' });
    await runner.runOnce();
    expect((await store.get(second.id))?.state).toBe('done');
    expect((await store.get(second.id))?.approvals ?? []).toEqual([]);
    expect(post.runs).toEqual(['hello', 'again']);
  });

  it('remembers nothing on a denial', async () => {
    const { dir, model, rules } = await started();
    const { post, tools } = sendTools();
    const { store, runner } = runnerFor(dir, model, tools, { approvalRules: rules });
    model.enqueue('PAGE: files', 'POST: hello');
    const task = await store.add({ instructions: 'Post the files.' });
    await runner.runOnce();
    const decided = await decideApproval(store, task.id, {
      decision: 'denied',
      by: 'cli',
      remember: 'always',
    });
    expect('task' in decided && decided.task.approvals?.[0]?.remember).toBeUndefined();
    model.enqueue('PAGE: files', 'POST: hello', 'TASK: done Refused.', 'Done.');
    await runner.runOnce();
    expect(post.runs).toEqual([]);
    expect(await rules.list()).toEqual([]);
  });
});
