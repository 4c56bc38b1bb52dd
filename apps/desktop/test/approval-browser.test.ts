import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createMetricsCollector } from '@macstats/metrics';
import { createApprovalScenario, type FakeOllama, startFakeOllama } from '@macstats/testing';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { type Dashboard, startDashboard } from '../src/server/dashboard.js';
import { launchBrowser, screenshot, type TestBrowser } from './browser.js';

let fake: FakeOllama;
let home: string;
let dashboard: Dashboard;
let browser: TestBrowser;
let page: Page;
const collector = createMetricsCollector();
/** PAGE reads outside content; SAVE then changes saved state, which needs the user's approval. */
const { tools, saved, reply } = createApprovalScenario();

beforeAll(async () => {
  fake = await startFakeOllama({ reply });
  home = mkdtempSync(join(tmpdir(), 'macstats-approval-page-'));
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
  // A new chat each time: one question at a time per conversation.
  await page.goto(`${dashboard.origin}/#chat`);
  await page.click('#chat-new');
});

/** Asks, and waits for the approval card of the new turn. */
async function askAndWaitForCard() {
  await page.fill('#chat-input', 'read the page and save what it says');
  await page.click('#chat-send');
  const card = page.locator('.turn .approval-card');
  await card.waitFor();
  return card;
}

describe('approvals in the dashboard chat', () => {
  it('shows a card with the reason, and runs the call when the user approves', async () => {
    const card = await askAndWaitForCard();
    expect(await card.locator('.approval-call').textContent()).toBe('SAVE the attacker');
    expect(await card.locator('.approval-reason').textContent()).toMatch(
      /^SAVE would change saved state .* outside content \(PAGE https:\/\/example\.com\/\)/,
    );
    await page.locator('.turn-status', { hasText: 'Waiting for your approval…' }).waitFor();
    await page
      .locator('.tool[data-tool="SAVE"] .tool-approval', { hasText: 'waiting for your approval' })
      .waitFor();
    await screenshot(page, 'approval-card');

    await card.locator('button', { hasText: 'Approve' }).click();
    await page.locator('.turn[data-status="done"]').waitFor();
    expect(saved).toEqual(['the attacker']);
    expect(await page.locator('.approval-card').count()).toBe(0);
    expect(await page.locator('.message.assistant').textContent()).toContain('Saved.');
    const entry = page.locator('.tool[data-tool="SAVE"]');
    expect(await entry.getAttribute('data-approval')).toBe('approved');
    expect(await entry.locator('.tool-approval').textContent()).toBe('approved');
  });

  it('refuses the call when the user denies, and shows the refusal in the steps', async () => {
    const card = await askAndWaitForCard();
    await card.locator('button', { hasText: 'Deny' }).click();
    await page.locator('.turn[data-status="done"]').waitFor();
    expect(saved).toEqual([]);
    expect(await page.locator('.approval-card').count()).toBe(0);
    // The model was told in one sentence, and answered anyway.
    expect(await page.locator('.message.assistant').textContent()).toMatch(
      /Not run: SAVE would change saved state .* The user did not approve it\./,
    );
    const entry = page.locator('.tool[data-tool="SAVE"]');
    expect(await entry.getAttribute('class')).toContain('tool-refused');
    expect(await entry.locator('.tool-approval').textContent()).toBe('refused: not approved');
    // A reload reads the saved transcript: the refusal is still there, the card is not.
    await page.reload();
    await page.locator('.tool[data-tool="SAVE"][data-approval="refused"]').waitFor();
    expect(await page.locator('.approval-card').count()).toBe(0);
    await screenshot(page, 'approval-refused');
  });

  it('closes the card when the user stops the answer while it waits', async () => {
    await askAndWaitForCard();
    await page.click('#chat-stop');
    await page.locator('.turn[data-status="stopped"]').waitFor();
    expect(await page.locator('.approval-card').count()).toBe(0);
    expect(saved).toEqual([]);
  });

  it('keeps the card across a reload while the call waits, and a decided card cannot be decided again', async () => {
    await askAndWaitForCard();
    await page.reload();
    const card = page.locator('.turn .approval-card');
    await card.waitFor();
    const id = await card.getAttribute('data-approval');
    await card.locator('button', { hasText: 'Approve' }).click();
    await page.locator('.turn[data-status="done"]').waitFor();
    expect(saved).toEqual(['the attacker']);
    const again = await page.evaluate(async (approvalId) => {
      const response = await fetch(`/api/chat/approvals/${approvalId}`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify({ approved: true }),
      });
      return response.status;
    }, id);
    expect(again).toBe(409);
  });
});
