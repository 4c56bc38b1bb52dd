import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createMetricsCollector } from '@macstats/metrics';
import { type FakeOllama, startFakeOllama } from '@macstats/testing';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Dashboard, startDashboard } from '../src/server/dashboard.js';
import { launchBrowser, screenshot, type TestBrowser } from './browser.js';

let fake: FakeOllama;
let home: string;
let dashboard: Dashboard;
let browser: TestBrowser;
let page: Page;

const graded = (model: string, score: number, mode: string) => ({
  model,
  mode,
  score,
  toolCallSuccess: score,
  correctAnswers: score,
  plantedInstructionIgnored: score > 0.5,
  medianLatencyMs: 900,
  tokensPerSecond: 25,
  rank: 1,
  results: [],
});

beforeAll(async () => {
  fake = await startFakeOllama();
  home = mkdtempSync(join(tmpdir(), 'macstats-eval-browser-'));
  writeFileSync(
    join(home, 'eval.json'),
    JSON.stringify({
      version: 1,
      createdAt: '2026-11-24T08:00:00.000Z',
      provider: 'ollama',
      server: fake.url,
      scenarios: [],
      models: [graded('qwen2.5:7b', 0.93, 'native'), graded('gemma2:2b', 0.4, 'text')],
      best: 'qwen2.5:7b',
    }),
  );
  dashboard = await startDashboard({
    home,
    ollama: { host: fake.url, model: 'gemma2:2b' },
    collector: createMetricsCollector(),
    scheduler: false,
  });
  browser = await launchBrowser();
  page = await browser.newPage();
});
afterAll(async () => {
  await browser?.close();
  await dashboard?.close();
  await fake?.close();
  rmSync(home, { recursive: true, force: true });
});

describe('Settings shows the last model evaluation', () => {
  it('lists the graded models best first and switches to the best one on request', async () => {
    await page.goto(`${dashboard.url.replace(/#.*$/, '')}#settings`);
    const rows = page.locator('#settings-eval tbody tr');
    await expect.poll(() => rows.count()).toBe(2);
    expect(await rows.nth(0).locator('td').allTextContents()).toEqual([
      'qwen2.5:7b',
      'native',
      '93%',
      '93%',
      'ignored',
      '900 ms',
      '0.93',
    ]);
    await screenshot(page, 'settings-eval');
    await page.click('#settings-use-best');
    await expect
      .poll(() => readFileSync(join(home, '.config.env'), 'utf8'))
      .toMatch(/OLLAMA_MODEL=qwen2\.5:7b/);
    await expect.poll(() => page.locator('#settings-use-best').count()).toBe(0);
  });
});
