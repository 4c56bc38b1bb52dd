import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createMetricsCollector } from '@macstats/metrics';
import { type FakeOllama, startFakeOllama } from '@macstats/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Dashboard, startDashboard } from '../src/server/dashboard.js';
import { launchBrowser, screenshot, type TestBrowser } from './browser.js';
import { gatedFakeModel } from './fake-model.js';

let fake: FakeOllama;
let home: string;
let dashboard: Dashboard;
let browser: TestBrowser;
const collector = createMetricsCollector();
/** Answers a task that says "wait for the gate" only once the test opens the gate. */
const model = gatedFakeModel();
model.close();

beforeAll(async () => {
  fake = await startFakeOllama({ reply: model.reply });
  home = mkdtempSync(join(tmpdir(), 'macstats-run-now-page-'));
  writeFileSync(
    join(home, 'schedules.json'),
    `${JSON.stringify({
      schedules: [
        { id: 'disk-check', task: 'Say hello, but wait for the gate', cron: '0 9 * * 1-5', timezone: 'UTC' },
        { id: 'broken', task: 'Summarise, though the model breaks', cron: '0 4 * * *', timezone: 'UTC' },
        {
          id: 'weekly-summary-of-everything',
          task: 'Summarise the week',
          cron: '0 18 * * 5',
          timezone: 'UTC',
        },
      ],
    })}\n`,
  );
  dashboard = await startDashboard({ home, ollama: { host: fake.url }, collector });
  browser = await launchBrowser();
});
afterAll(async () => {
  model.open();
  await browser?.close();
  await dashboard?.close();
  await fake?.close();
  rmSync(home, { recursive: true, force: true });
});

describe('Run now in the page', () => {
  it('runs a schedule, shows it running, then shows its last run', async () => {
    const page = await browser.newPage({ width: 380, height: 800, colorScheme: 'dark' });
    await page.goto(dashboard.url);
    await page.goto(`${dashboard.origin}/#schedules`);
    const entry = page.locator('[data-schedule="disk-check"]');
    const button = entry.locator('button[data-action="run-now"]');
    await button.waitFor();
    expect(await button.isEnabled()).toBe(true);
    const nextRuns = await entry.locator('.next-runs').textContent();

    await button.click();
    await entry.locator('.pill', { hasText: 'running…' }).waitFor();
    await entry.locator('button[data-action="run-now"][disabled]').waitFor();
    expect(await entry.locator('button[data-action="run-now"]').getAttribute('title')).toBe(
      'This schedule is running; wait for it to finish.',
    );
    const width = await page.evaluate(() => document.documentElement.scrollWidth);
    expect(width).toBeLessThanOrEqual(380);
    await screenshot(page, 'schedules-run-now-narrow-dark', true);

    model.open();
    await entry.locator('.last-run', { hasText: '(run now)' }).waitFor();
    expect(await entry.locator('.last-run').textContent()).toMatch(/^Last run \(run now\) .+: ok in /);
    expect(await entry.locator('.pill').count()).toBe(0);
    expect(await entry.locator('.next-runs').textContent()).toBe(nextRuns);
    await page.locator('#schedule-history tr[data-outcome="ok"]', { hasText: '(run now)' }).waitFor();
    await screenshot(page, 'schedules-run-now-narrow-dark-done', true);
    await page.close();

    const wide = await browser.newPage({ colorScheme: 'light' });
    await wide.goto(`${dashboard.origin}/#schedules`);
    await wide.locator('[data-schedule="disk-check"] .last-run').waitFor();
    await screenshot(wide, 'schedules-run-now-light', true);
    await wide.close();
  });

  it('shows a run whose agent answer failed in red, as an error with its reason', async () => {
    const page = await browser.newPage({ colorScheme: 'light' });
    await page.goto(dashboard.url);
    await page.goto(`${dashboard.origin}/#schedules`);
    const entry = page.locator('[data-schedule="broken"]');
    await entry.locator('button[data-action="run-now"]').click();

    const last = entry.locator('.last-run[data-outcome="error"]');
    await last.waitFor();
    expect(await last.textContent()).toMatch(/^Last run \(run now\) .+: error in /);
    const row = page.locator('#schedule-history tr[data-outcome="error"]', { hasText: 'broken' });
    await row.waitFor();
    expect(await row.textContent()).toContain('llama runner process has terminated');
    const okRow = page.locator('#schedule-history tr[data-outcome="ok"]').first();
    const colours = await page.evaluate(() => {
      const probe = document.createElement('span');
      probe.style.color = 'var(--hot)';
      document.body.append(probe);
      const hot = getComputedStyle(probe).color;
      probe.remove();
      return { hot };
    });
    const colourOf = (locator: typeof row) => locator.evaluate((element) => getComputedStyle(element).color);
    expect(await colourOf(row.locator('td').first())).toBe(colours.hot);
    expect(await colourOf(last)).toBe(colours.hot);
    if ((await okRow.count()) > 0) expect(await colourOf(okRow.locator('td').first())).not.toBe(colours.hot);
    await screenshot(page, 'schedules-failed-run-light', true);
    await page.close();
  });

  it('disables Run now, saying why, on a dashboard that does not run the schedules', async () => {
    const second = await startDashboard({ home, ollama: { host: fake.url }, collector });
    try {
      const page = await browser.newPage({ colorScheme: 'light' });
      await page.goto(second.url);
      await page.goto(`${second.origin}/#schedules`);
      const button = page.locator('[data-schedule="disk-check"] button[data-action="run-now"]');
      await button.waitFor();
      expect(await button.isDisabled()).toBe(true);
      expect(await button.getAttribute('title')).toBe(
        'Another macstats process runs the schedules: run it from there.',
      );
      await screenshot(page, 'schedules-run-now-follower-light', true);
      await page.close();
    } finally {
      await second.close();
    }
  });
});
