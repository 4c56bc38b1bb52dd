import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ARCHIVE_FOLDER, createMessageArchive } from '@macstats/core';
import { createMetricsCollector } from '@macstats/metrics';
import { type FakeOllama, startFakeOllama } from '@macstats/testing';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Dashboard, startDashboard } from '../src/server/dashboard.js';
import { askInChat, launchBrowser, screenshot, type TestBrowser } from './browser.js';

let fake: FakeOllama;
let home: string;
let dashboard: Dashboard;
let browser: TestBrowser;
let page: Page;
const archive = () => createMessageArchive({ dir: join(home, 'sessions', ARCHIVE_FOLDER) });

beforeAll(async () => {
  fake = await startFakeOllama({ reply: () => 'Noted.' });
  home = mkdtempSync(join(tmpdir(), 'macstats-recalled-page-'));
  dashboard = await startDashboard({ home, ollama: { host: fake.url }, collector: createMetricsCollector() });
  browser = await launchBrowser();
  page = await browser.newPage();
  await page.goto(dashboard.url);
  await page.goto(`${dashboard.origin}/#chat`);
});

afterAll(async () => {
  await browser?.close();
  await dashboard?.close();
  await fake?.close();
  rmSync(home, { recursive: true, force: true });
});

describe('the recalled fold under an answer', () => {
  it('lists what the answer recalled, dated and attributed, and Forget removes one for good', async () => {
    await askInChat(page, 'Hello there.');
    const id = await page.evaluate(() => localStorage.getItem('macstats.conversation'));
    // An earlier message of this chat, as `macstats memory import` would have left it.
    await archive().append(id ?? '', [
      { speaker: 'me', text: 'The spare key is under the blue pot.', at: Date.UTC(2026, 0, 2, 8, 0) },
    ]);
    await askInChat(page, 'Where is the spare key?');
    const fold = page.locator('.turn').nth(1).locator('details.recalled');
    await fold.locator('summary').click();
    const line = fold.locator('li').filter({ hasText: 'The spare key is under the blue pot.' });
    expect(await line.textContent()).toContain(
      '2026-01-02 08:00 UTC me: The spare key is under the blue pot.',
    );
    await screenshot(page, 'chat-recalled-fold');
    await line.getByRole('button', { name: 'Forget' }).click();
    await line.waitFor({ state: 'detached' });
    expect((await archive().read(id ?? '')).map((message) => message.text)).not.toContain(
      'The spare key is under the blue pot.',
    );
  });
});
