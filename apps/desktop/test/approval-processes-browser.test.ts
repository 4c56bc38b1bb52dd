import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { createMetricsCollector } from '@macstats/metrics';
import type { Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { type Dashboard, startDashboard } from '../src/server/dashboard.js';
import { launchBrowser, type TestBrowser } from './browser.js';

let home: string;
let dashboard: Dashboard;
let browser: TestBrowser;
let page: Page;
let bot: ChildProcess | undefined;
const collector = createMetricsCollector();
const appDir = fileURLToPath(new URL('..', import.meta.url));

beforeAll(async () => {
  home = mkdtempSync(join(tmpdir(), 'macstats-approval-processes-'));
  dashboard = await startDashboard({
    home,
    ollama: { host: 'http://127.0.0.1:9' },
    collector,
    scheduler: false,
    tasks: false,
  });
  browser = await launchBrowser();
  page = await browser.newPage();
  await page.goto(dashboard.url);
});
afterAll(async () => {
  await browser?.close();
  await dashboard?.close();
  rmSync(home, { recursive: true, force: true });
});
afterEach(async () => {
  if (bot && bot.exitCode === null && bot.signalCode === null) {
    bot.kill('SIGKILL');
    await once(bot, 'exit');
  }
});

/**
 * Another process on the data folder, as `macstats start`'s bot is: it asks one card (a send the
 * user configured, so every answer is offered) and prints `opened <id>`, then `resolved <answer>`.
 */
function botAsking() {
  const script = `
    import { createSharedPendingApprovals } from '@macstats/core';
    const pending = createSharedPendingApprovals({ dir: process.argv[1] });
    const { approval, answered } = pending.open({
      tool: 'POST', argument: 'post "hello"', rule: 'send', reason: 'It would send data to mcp:notes/post.',
      conversationId: 'discord-42', timeoutMs: 600000, signal: new AbortController().signal,
      scope: { tool: 'POST', rule: 'send', target: 'mcp:notes/post', remember: 'always' },
    }, 'discord');
    console.log('opened ' + approval.id);
    const alive = setInterval(() => {}, 60000); // a bot runs on; nothing else holds this one
    answered.then((answer) => { console.log('resolved ' + answer); pending.close(); clearInterval(alive); });`;
  bot = spawn(process.execPath, ['--input-type=module', '-e', script, join(home, 'approvals')], {
    cwd: appDir,
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const lines = createInterface({ input: bot.stdout! })[Symbol.asyncIterator]();
  return async () => String((await lines.next()).value ?? 'exited');
}

describe('approvals waiting in another process, in Settings', () => {
  it('appears while Settings is open, shows its call, and an answer here resolves the call in that process', async () => {
    await page.goto(`${dashboard.origin}/#settings`);
    await page.locator('#settings-approvals .approvals-pending, #settings-approvals .note').first().waitFor();
    const next = botAsking();
    const id = (await next()).replace('opened ', '');
    const card = page.locator(`.approvals-pending li[data-approval="${id}"]`);
    await card.waitFor();
    expect(await card.locator('.approval-call').textContent()).toBe('post "hello"');
    expect(await card.textContent()).toContain('POST (send), asked on discord, denied at');
    expect(await card.locator('.approval-answer').allTextContents()).toEqual([
      'Approve once',
      'This conversation',
      'Always',
      'Deny',
    ]);
    await card.locator('.approval-answer', { hasText: 'Approve once' }).click();
    expect(await next()).toBe('resolved once');
    await card.waitFor({ state: 'detached' });
    expect(await page.locator('#settings-approvals .form-message').textContent()).toBe(
      'Approved: POST (send).',
    );
  });

  it('takes the card away when it is answered elsewhere, and a late answer is one sentence', async () => {
    await page.goto(`${dashboard.origin}/#settings`);
    const next = botAsking();
    const id = (await next()).replace('opened ', '');
    const card = page.locator(`.approvals-pending li[data-approval="${id}"]`);
    await card.waitFor();
    // Answered in another place (Discord, the terminal) before this page's click arrives.
    const other = await page.evaluate(async (approvalId) => {
      const response = await fetch(`/api/chat/approvals/${approvalId}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ answer: 'deny' }),
      });
      return response.status;
    }, id);
    expect(other).toBe(200);
    expect(await next()).toBe('resolved deny');
    await card.waitFor({ state: 'detached' });
    const late = await page.evaluate(async (approvalId) => {
      const response = await fetch(`/api/chat/approvals/${approvalId}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ answer: 'once' }),
      });
      return { status: response.status, body: await response.json() };
    }, id);
    expect(late.status).toBe(409);
    expect(late.body.error).toBe('This approval was already answered (or it expired).');
  });
});
