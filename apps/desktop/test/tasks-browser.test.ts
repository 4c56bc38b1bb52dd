import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Tool } from '@macstats/core';
import { createMetricsCollector } from '@macstats/metrics';
import { createTaskStore } from '@macstats/tasks';
import { type FakeChatRequest, type FakeOllama, startFakeOllama } from '@macstats/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Dashboard, startDashboard } from '../src/server/dashboard.js';
import { launchBrowser, screenshot, type TestBrowser } from './browser.js';

/** FETCH_URL on a page of the test's own: outside content, so a TASK add after it needs approval. */
const pageTool: Tool = {
  name: 'FETCH_URL',
  description: 'Reads a web page.',
  usage: 'FETCH_URL: <url>',
  labels: (call) => ({ outside: true, sendsTo: call.argument }),
  run: async () => 'The price is 180 today.',
};

/** The scripted model: read the page, add a follow-up (held for approval), then end; or wait a day. */
function script(request: FakeChatRequest): string {
  const text = request.messages.map((message) => message.content).join('\n');
  // Two follow-ups of one task: the second runs without asking once the first is approved for the task.
  if (text.includes('Watch the price twice')) {
    const added = text.split('Added task').length - 1;
    if (text.includes('will be marked done')) return 'Noted.';
    if (added >= 2) return 'TASK: done Two follow-ups added.';
    if (added === 1) return 'TASK: add Look once more.';
    if (text.includes('The price is 180 today')) return 'TASK: add Look again tomorrow.';
    return 'FETCH_URL: https://shop.example/price';
  }
  if (text.includes('Look once more') || text.includes('Look again tomorrow')) return 'TASK: wait 1d';
  if (text.includes('will be marked done') || text.includes('The task will wait until')) return 'Noted.';
  if (text.includes('Added task')) return 'TASK: done The price is 180; a follow-up is added.';
  if (text.includes('Not run:')) return 'TASK: done The price is 180; no follow-up.';
  if (text.includes('The price is 180 today')) return 'TASK: add Check the price again tomorrow.';
  if (text.includes('Check the price again tomorrow') || text.includes('Sleep until tomorrow'))
    return 'TASK: wait 1d';
  return 'FETCH_URL: https://shop.example/price';
}

let fake: FakeOllama;
let home: string;
let dashboard: Dashboard;
let browser: TestBrowser;
const collector = createMetricsCollector();

beforeAll(async () => {
  fake = await startFakeOllama({ reply: script });
  home = mkdtempSync(join(tmpdir(), 'macstats-tasks-page-'));
  dashboard = await startDashboard({
    home,
    ollama: { host: fake.url },
    collector,
    scheduler: false,
    tools: [pageTool],
  });
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
  await dashboard?.close();
  await fake?.close();
  rmSync(home, { recursive: true, force: true });
});

describe('the Tasks view', () => {
  it("shows a task's steps live, and runs the call it waits for once the owner approves", async () => {
    const store = createTaskStore({ dir: join(home, 'tasks') });
    const task = await store.add({ instructions: 'Watch the price page and tell me the price.' });
    const page = await browser.newPage();
    await page.goto(dashboard.url);
    await page.goto(`${dashboard.origin}/#tasks`);
    const row = page.locator(`li.task[data-task-id="${task.id}"]`);
    // The dashboard's runner ran step 1 (no macstats start here) and the call waits for the owner.
    await row.locator('.task-approval').waitFor();
    expect(await row.getAttribute('data-state')).toBe('waiting');
    expect(await row.locator('.task-call').textContent()).toBe('TASK: add Check the price again tomorrow');
    expect(await row.locator('.task-waiting').textContent()).toContain("waits for its owner's approval");
    await row.locator('button[data-action="open"]').click();
    await page.locator('#task-steps .task-step[data-step="1"] code', { hasText: 'FETCH_URL' }).waitFor();
    await screenshot(page, 'tasks-waiting');

    await row.locator('button[data-action="approve"]').click();
    // Live: the step resumes and the task ends, without a reload.
    await page.locator(`li.task[data-task-id="${task.id}"][data-state="done"]`).waitFor();
    expect(await page.locator(`li.task[data-task-id="${task.id}"] .task-outcome`).textContent()).toBe(
      'The price is 180; a follow-up is added',
    );
    await page.locator(`li.task[data-task-id="${task.id}-1-1"]`).waitFor();
    await page.locator('#task-steps .task-step[data-finished="true"]').waitFor();
    const saved = await store.get(task.id);
    expect(saved?.approvals?.[0]).toMatchObject({ decision: 'approved', decidedBy: 'dashboard' });
    expect(saved?.steps).toHaveLength(1);
    await page.close();
  });

  it('cancels and resumes a task, and shows a refusal in one sentence', async () => {
    const store = createTaskStore({ dir: join(home, 'tasks') });
    const task = await store.add({ instructions: 'Sleep until tomorrow, then say hello.' });
    const page = await browser.newPage();
    await page.goto(dashboard.url);
    await page.goto(`${dashboard.origin}/#tasks`);
    const row = () => page.locator(`li.task[data-task-id="${task.id}"]`);
    await page.locator(`li.task[data-task-id="${task.id}"][data-state="waiting"]`).waitFor();
    await row().locator('button[data-action="cancel"]').click();
    await page.locator(`li.task[data-task-id="${task.id}"][data-state="cancelled"]`).waitFor();
    expect(await row().locator('.task-outcome').textContent()).toBe('Cancelled by its owner.');
    await row().locator('button[data-action="resume"]').click();
    await page.locator('#tasks-message', { hasText: `Task ${task.id} is open.` }).waitFor();
    expect((await store.get(task.id))?.state).not.toBe('cancelled');

    const refused = await page.evaluate(async (id) => {
      const response = await fetch(`/api/tasks/${id}/approve`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: '{}',
      });
      return { status: response.status, body: await response.json() };
    }, task.id);
    expect(refused).toEqual({ status: 409, body: { error: `Task ${task.id} waits for no approval.` } });
    await page.close();
  });

  it('offers the owner This task: the same kind of call later in the task runs without asking', async () => {
    const store = createTaskStore({ dir: join(home, 'tasks') });
    const task = await store.add({ instructions: 'Watch the price twice.' });
    const page = await browser.newPage();
    await page.goto(dashboard.url);
    await page.goto(`${dashboard.origin}/#tasks`);
    const row = page.locator(`li.task[data-task-id="${task.id}"]`);
    await row.locator('.task-approval').waitFor();
    // A persisting call after outside content: This task, never Always.
    expect(await row.locator('.task-approval button').allTextContents()).toEqual([
      'Approve once',
      'This task',
      'Deny',
    ]);
    await row.locator('button[data-action="approve-task"]').click();
    await page.locator(`li.task[data-task-id="${task.id}"][data-state="done"]`).waitFor();
    const saved = await store.get(task.id);
    expect(saved?.approvals).toHaveLength(1);
    expect(saved?.approvals?.[0]).toMatchObject({
      decision: 'approved',
      remember: 'task',
      decidedBy: 'dashboard',
    });
    expect((await store.get(`${task.id}-1-2`))?.instructions).toBe('Look once more');
    const refused = await page.evaluate(async (id) => {
      const response = await fetch(`/api/tasks/${id}/approve`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ remember: 'forever' }),
      });
      return { status: response.status, body: await response.json() };
    }, task.id);
    expect(refused.status).toBe(400);
    expect(refused.body.error).toMatch(/^Say how long the approval holds/);
    await page.close();
  });
});
