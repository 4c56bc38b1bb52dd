import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Tool } from '@macstats/core';
import { createMetricsCollector } from '@macstats/metrics';
import { type FakeOllama, startFakeOllama } from '@macstats/testing';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Dashboard, startDashboard } from '../src/server/dashboard.js';
import { launchBrowser, type TestBrowser } from './browser.js';

// Two 1x1 PNGs of different colours: what a browser screenshot would be, only smaller.
const RED =
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8DwHwAFBQIAX8jx0gAAAABJRU5ErkJggg==';
const BLUE =
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPj/HwADBwIAMCbHYQAAAABJRU5ErkJggg==';

/** A tool that returns a screenshot, as BROWSER's `screenshot` does. */
const camera: Tool = {
  name: 'CAMERA',
  description: 'Takes a picture of the page.',
  usage: 'CAMERA: <which>',
  labels: { outside: true },
  run: async (argument) => ({ text: `Took ${argument}.`, images: [argument === 'first' ? RED : BLUE] }),
};

let fake: FakeOllama;
let home: string;
let dashboard: Dashboard;
let browser: TestBrowser;
let page: Page;

beforeAll(async () => {
  fake = await startFakeOllama({ replies: ['CAMERA: first', 'CAMERA: second', 'Two pictures taken.'] });
  home = mkdtempSync(join(tmpdir(), 'macstats-screenshot-page-'));
  dashboard = await startDashboard({
    home,
    ollama: { host: fake.url, model: 'gemma2:2b' },
    collector: createMetricsCollector(),
    tools: [camera],
    scheduler: false,
  });
  browser = await launchBrowser();
  page = await browser.newPage();
  await page.goto(`${dashboard.url}#chat`);
});
afterAll(async () => {
  await browser?.close();
  await dashboard?.close();
  await fake?.close();
  rmSync(home, { recursive: true, force: true });
});

describe('a screenshot in the dashboard chat', () => {
  it('shows the last image a tool gave, under its call, and only that one, also after a reload', async () => {
    await page.click('#chat-new');
    await page.fill('#chat-input', 'take two pictures');
    await page.click('#chat-send');
    await page.locator('.turn[data-status="done"]').waitFor();
    for (const view of ['live', 'reloaded']) {
      if (view === 'reloaded') {
        await page.reload();
        await page.locator('.turn[data-status="done"]').waitFor();
      }
      const images = page.locator('.turn .tool-image');
      expect(await images.count(), view).toBe(1);
      const image = page.locator('.tool[data-tool="CAMERA"]').nth(1).locator('img.tool-image');
      expect(await image.getAttribute('src'), view).toBe(`data:image/png;base64,${BLUE}`);
      // The browser decoded it: the CSP lets data: images through.
      expect(await image.evaluate((element) => (element as HTMLImageElement).naturalWidth), view).toBe(1);
    }
  });
});
