import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createMetricsCollector, type MetricsCollector } from '@macstats/metrics';
import { type FakeOllama, type FakeOllamaOptions, startFakeOllama } from '@macstats/testing';
import type { Page } from 'playwright-core';
import { type Dashboard, type DashboardOptions, startDashboard } from '../src/server/dashboard.js';
import { launchBrowser, type TestBrowser } from './browser.js';

/** A dashboard on a fake Ollama with a live collector, and a Chromium page to open it in. */
export interface DashboardPage {
  fake: FakeOllama;
  home: string;
  collector: MetricsCollector;
  dashboard: Dashboard;
  browser: TestBrowser;
  page: Page;
  close(): Promise<void>;
}

/**
 * Starts what a browser test file needs: a fake Ollama, a temporary home, a quick collector
 * (samples within a second; the dashboard still switches its speed), the dashboard and Chromium.
 */
export async function startDashboardPage(
  options: {
    fake?: FakeOllamaOptions;
    dashboard?: Partial<Omit<DashboardOptions, 'home' | 'collector'>>;
    /** More Chromium flags (a fake microphone). */
    browserArgs?: readonly string[];
  } = {},
): Promise<DashboardPage> {
  const fake = await startFakeOllama(options.fake);
  const home = mkdtempSync(join(tmpdir(), 'macstats-desktop-'));
  const collector = createMetricsCollector({
    intervals: { fastMs: 400, slowMs: 3000, warmupMs: 200 },
    topProcesses: 8,
  });
  collector.start();
  const dashboard = await startDashboard({
    home,
    ollama: { host: fake.url },
    collector,
    ...options.dashboard,
  });
  const browser = await launchBrowser(options.browserArgs);
  const page = await browser.newPage();
  return {
    fake,
    home,
    collector,
    dashboard,
    browser,
    page,
    async close() {
      await browser.close();
      await dashboard.close();
      await collector.stop();
      await fake.close();
      rmSync(home, { recursive: true, force: true });
    },
  };
}
