import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createMetricsCollector } from '@macstats/metrics';
import { type FakeOllama, startFakeOllama } from '@macstats/testing';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Dashboard, startDashboard } from '../src/server/dashboard.js';
import type { ConversationList } from '../src/shared/chat-types.js';
import { askInChat, launchBrowser, screenshot, type TestBrowser } from './browser.js';
import { fakeModel } from './fake-model.js';

let fake: FakeOllama;
let home: string;
let dashboard: Dashboard;
let browser: TestBrowser;
let page: Page;

beforeAll(async () => {
  fake = await startFakeOllama({ reply: fakeModel });
  home = mkdtempSync(join(tmpdir(), 'macstats-history-'));
  // Not started: the chat needs no live metrics.
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

const MARS = 'What is the weather like on Mars?';
const MEMORY = 'How much memory is free?';
const entries = (on: Page = page) => on.locator('#chat-history .history-entry');
const entry = (text: string, on: Page = page) => entries(on).filter({ hasText: text });
const current = (on: Page = page) => on.locator('#chat-history .history-entry[aria-current="true"]');
const fileOf = (id: string | null) => join(home, 'desktop', 'conversations', `${id}.json`);

describe('earlier chats', () => {
  it('lists the first chat once it has a question, marked as the one shown', async () => {
    await page.locator('#chat-history .history-empty').filter({ hasText: 'No earlier chats yet.' }).waitFor();
    await askInChat(page, MARS);
    await current().filter({ hasText: MARS }).waitFor();
    expect(await entries().count()).toBe(1);
    expect(await current().locator('.history-meta').textContent()).toMatch(/^1 question · /);
  });

  it('adds a new chat to the list once it is asked, newest first, in every open page', async () => {
    const other = await browser.newPage();
    await other.goto(`${dashboard.origin}/#chat`);
    await entry(MARS, other).waitFor();
    await page.click('#chat-new');
    expect(await page.locator('.turn').count()).toBe(0);
    expect(await current().count()).toBe(0);
    expect(await entries().count()).toBe(1);
    await askInChat(page, MEMORY);
    await current().filter({ hasText: MEMORY }).waitFor();
    expect(await entries().allTextContents()).toEqual([
      expect.stringContaining(MEMORY),
      expect.stringContaining(MARS),
    ]);
    // The other page heard of it over the live stream; it still shows its own chat.
    await entries(other).nth(1).waitFor();
    expect(await entries(other).first().textContent()).toContain(MEMORY);
    await other.close();
  });

  it('reopens the first chat from the list with its transcript, also after a reload', async () => {
    await entry(MARS).locator('.history-open').click();
    await page.locator('.message.user').filter({ hasText: MARS }).waitFor();
    expect(await page.locator('.turn').count()).toBe(1);
    expect(await page.locator('.message.assistant').textContent()).toBe('Hello from the fake model.');
    expect(await current().textContent()).toContain(MARS);
    await page.reload();
    await page.locator('.message.user').filter({ hasText: MARS }).waitFor();
    await current().filter({ hasText: MARS }).waitFor();
  });

  it('shows an answer still running when its chat is reopened, and marks it in the list until it ends', async () => {
    await page.click('#chat-new');
    await page.fill('#chat-input', 'Please answer slowly');
    await page.click('#chat-send');
    const slow = entry('Please answer slowly');
    await slow.locator('.pill').filter({ hasText: 'answering' }).waitFor();
    expect(await slow.locator('.history-delete').isDisabled()).toBe(true);
    await screenshot(page, 'chat-history-running');
    await entry(MARS).locator('.history-open').click();
    await page.locator('.message.user').filter({ hasText: MARS }).waitFor();
    await slow.locator('.history-open').click();
    await page.locator('.turn[data-status="running"] .message.user').filter({ hasText: 'slowly' }).waitFor();
    expect(await page.isVisible('#chat-stop')).toBe(true);
    await page
      .locator('.turn[data-status="done"] .message.assistant')
      .filter({ hasText: 'A slow answer.' })
      .waitFor();
    await slow.locator('.pill').waitFor({ state: 'detached' });
    expect(await slow.locator('.history-delete').isEnabled()).toBe(true);
  });

  it('fits a phone and a desktop window, in the light and the dark theme', async () => {
    for (const colorScheme of ['light', 'dark'] as const) {
      for (const width of [380, 1280]) {
        const view = await browser.newPage({ width, height: 760, colorScheme });
        await view.goto(`${dashboard.origin}/#chat`);
        await entries(view).nth(2).waitFor({ state: 'attached' });
        // Wide, the list starts open beside the transcript; narrow, folded above it.
        expect(await view.locator('#chat-history').getAttribute('open')).toBe(width > 900 ? '' : null);
        if (width < 900) {
          await screenshot(view, `chat-history-${width}-${colorScheme}-folded`);
          await view.click('#chat-history summary');
        }
        await view.locator('.message.user').first().waitFor();
        expect(await view.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(
          true,
        );
        await screenshot(view, `chat-history-${width}-${colorScheme}`);
        await view.close();
      }
    }
  });

  it('deletes a chat only after the confirm, and its file goes', async () => {
    const id = await entry(MEMORY).getAttribute('data-conversation');
    expect(existsSync(fileOf(id))).toBe(true);
    page.once('dialog', (dialog) => void dialog.dismiss());
    await entry(MEMORY).locator('.history-delete').click();
    const listed = await page.evaluate(() =>
      fetch('/api/conversations').then((response) => response.json() as Promise<ConversationList>),
    );
    expect(listed.conversations.map((item) => item.id)).toContain(id);
    expect(existsSync(fileOf(id))).toBe(true);

    let question = '';
    page.once('dialog', (dialog) => {
      question = dialog.message();
      void dialog.accept();
    });
    await entry(MEMORY).locator('.history-delete').click();
    await entry(MEMORY).waitFor({ state: 'detached' });
    expect(question).toBe(`Delete the chat “${MEMORY}”? Its transcript cannot be brought back.`);
    expect(existsSync(fileOf(id))).toBe(false);
    expect(await entries().count()).toBe(2);
  });

  it('starts a new chat when the one shown is deleted', async () => {
    await entry(MARS).locator('.history-open').click();
    await page.locator('.message.user').filter({ hasText: MARS }).waitFor();
    page.once('dialog', (dialog) => void dialog.accept());
    await entry(MARS).locator('.history-delete').click();
    await entry(MARS).waitFor({ state: 'detached' });
    expect(await page.locator('.turn').count()).toBe(0);
    expect(await current().count()).toBe(0);
    await askInChat(page, 'A fresh start');
    await current().filter({ hasText: 'A fresh start' }).waitFor();
  });
});
