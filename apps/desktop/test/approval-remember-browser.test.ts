import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { APPROVAL_RULES_FILE, createApprovalRuleStore } from '@macstats/core';
import { createMetricsCollector } from '@macstats/metrics';
import { createApprovalScenario, type FakeOllama, startFakeOllama } from '@macstats/testing';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { type Dashboard, startDashboard } from '../src/server/dashboard.js';
import { launchBrowser, type TestBrowser } from './browser.js';

let fake: FakeOllama;
let home: string;
let dashboard: Dashboard;
let browser: TestBrowser;
let page: Page;
const collector = createMetricsCollector();
/** PAGE reads outside content; SAVE then changes saved state: a card that allows This conversation, not Always. */
const { tools, saved, reply } = createApprovalScenario();

beforeAll(async () => {
  fake = await startFakeOllama({ reply });
  home = mkdtempSync(join(tmpdir(), 'macstats-approval-remember-'));
  dashboard = await startDashboard({ home, ollama: { host: fake.url }, collector, tools, scheduler: false });
  browser = await launchBrowser();
  page = await browser.newPage();
  await page.goto(dashboard.url);
});
afterAll(async () => {
  await browser?.close();
  await dashboard?.close();
  await fake?.close();
  rmSync(home, { recursive: true, force: true });
});
beforeEach(async () => {
  saved.length = 0;
  await page.goto(`${dashboard.origin}/#chat`);
  await page.click('#chat-new');
});

async function ask(on: Page) {
  await on.fill('#chat-input', 'read the page and save what it says');
  await on.click('#chat-send');
}

describe('remembered approvals in the dashboard', () => {
  it('offers This conversation but not Always on a persisting call, and then runs it in that chat without a card', async () => {
    await ask(page);
    const card = page.locator('.turn .approval-card');
    await card.waitFor();
    expect(await card.locator('.approval-actions button').allTextContents()).toEqual([
      'Approve once',
      'This conversation',
      'Deny',
    ]);
    await card.locator('button', { hasText: 'This conversation' }).click();
    await page.locator('.turn[data-status="done"]').waitFor();
    expect(saved).toEqual(['the attacker']);
    await ask(page);
    await page.locator('.turn[data-status="done"]').nth(1).waitFor();
    expect(saved).toEqual(['the attacker', 'the attacker']);
    expect(await page.locator('.approval-card').count()).toBe(0);
  });

  it('closes the card on every open page when one page answers it', async () => {
    const other = await browser.newPage();
    try {
      await ask(page);
      await page.locator('.turn .approval-card').waitFor();
      const chat = await page.evaluate(() => location.hash);
      await other.goto(dashboard.url);
      await other.goto(`${dashboard.origin}/${chat}`);
      const copy = other.locator('.turn .approval-card');
      await copy.waitFor();
      await copy.locator('button', { hasText: 'Approve once' }).click();
      await page.locator('.turn[data-status="done"]').waitFor();
      await page.locator('.approval-card').waitFor({ state: 'detached' });
      await other.locator('.approval-card').waitFor({ state: 'detached' });
      expect(saved).toEqual(['the attacker']);
    } finally {
      await other.close();
    }
  });

  it('lists the saved rules in Settings and revokes one', async () => {
    const rules = createApprovalRuleStore(join(home, APPROVAL_RULES_FILE));
    const rule = await rules.add({
      tool: 'POST',
      rule: 'send',
      target: 'mcp:notes/post',
      remember: 'always',
    });
    await page.goto(`${dashboard.origin}/#settings`);
    const item = page.locator(`.approval-rules li[data-rule="${rule.id}"]`);
    await item.waitFor();
    expect(await item.locator('.approval-rule-text').textContent()).toBe('POST may send to mcp:notes/post');
    await item.locator('.approval-rule-revoke').click();
    await item.waitFor({ state: 'detached' });
    expect(await page.locator('#settings-approvals .form-message').textContent()).toBe(
      'Revoked: POST may send to mcp:notes/post asks again.',
    );
    expect((await rules.list()).map((saved) => saved.id)).not.toContain(rule.id);
  });

  it('lists the chats\' "This conversation" answers in Settings with their end (they outlive a restart)', async () => {
    await page.goto(`${dashboard.origin}/#settings`);
    const kept = page.locator('.approval-rules li', { hasText: 'SAVE may change saved state' }).first();
    await kept.waitFor();
    expect(await kept.locator('.approval-rule-text').textContent()).toMatch(
      /^SAVE may change saved state.* in conversation \S+ until \S+$/,
    );
    expect(await kept.locator('.note').textContent()).toMatch(/^until /);
  });
});
