import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createMetricsCollector } from '@macstats/metrics';
import { type FakeOllama, startFakeOllama } from '@macstats/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Dashboard, startDashboard } from '../src/server/dashboard.js';
import { launchBrowser, type TestBrowser } from './browser.js';

let fake: FakeOllama;
let home: string;
let dashboard: Dashboard;
let browser: TestBrowser;

beforeAll(async () => {
  fake = await startFakeOllama();
  home = mkdtempSync(join(tmpdir(), 'macstats-banner-'));
  dashboard = await startDashboard({
    home,
    ollama: { host: fake.url },
    collector: createMetricsCollector(),
    scheduler: false,
    tasks: false,
  });
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
  await dashboard?.close();
  rmSync(home, { recursive: true, force: true });
});

describe('the Ollama banner', () => {
  it('comes with the failed answer when Ollama stopped after the page opened', async () => {
    const page = await browser.newPage();
    await page.goto(dashboard.url);
    await page.goto(`${dashboard.origin}/#chat`);
    expect((await dashboard.checkOllama()).problem).toBeUndefined();
    expect(await page.locator('#banner').isHidden()).toBe(true);
    // Ollama goes away; the dashboard's own look is a minute off (it was healthy).
    await fake.close();
    await page.fill('#chat-input', 'How busy is the CPU?');
    await page.click('#chat-send');
    await page.locator('.message.assistant.failed').waitFor();
    const banner = page.locator('#banner .problem');
    await banner.waitFor();
    expect(await banner.textContent()).toContain('Ollama is not reachable');
  });
});
