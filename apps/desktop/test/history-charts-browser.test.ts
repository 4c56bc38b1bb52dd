import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { screenshot } from './browser.js';
import { type DashboardPage, startDashboardPage } from './dashboard-page.js';

let opened: DashboardPage;
let page: Page;

beforeAll(async () => {
  opened = await startDashboardPage();
  page = opened.page;
  // The dashboard's first minute: a few seconds of history at most.
  await page.goto(opened.dashboard.url);
  await page.locator('figure[aria-label="Usage"][data-x-ticks]').waitFor();
});

afterAll(() => opened?.close());

/** Shows a range and resolves with the Usage chart's tick labels once they are drawn for it. */
async function showRange(resolution: '1s' | '1m' | '1h'): Promise<string[]> {
  const chart = page.locator('figure[aria-label="Usage"]');
  const before = await chart.getAttribute('data-x-ticks');
  await page.click(`button[data-resolution="${resolution}"]`);
  if (resolution !== '1s')
    await page.waitForFunction(
      (previous) =>
        document.querySelector('figure[aria-label="Usage"]')?.getAttribute('data-x-ticks') !== previous,
      before,
    );
  await page.locator(`button[data-resolution="${resolution}"][aria-pressed="true"]`).waitFor();
  return ((await chart.getAttribute('data-x-ticks')) ?? '').split('|');
}

const minutesOf = (label: string) => {
  const [hours, minutes] = label.split(':').map(Number);
  return (hours as number) * 60 + (minutes as number);
};

describe('the history charts in the first minute', () => {
  it('label 5 minutes in whole minutes across the whole range', async () => {
    const ticks = await showRange('1s');
    await screenshot(page, 'history-5-minutes');
    expect(ticks.length).toBeGreaterThanOrEqual(3);
    for (const tick of ticks) expect(tick).toMatch(/^\d{2}:\d{2}$/);
    expect(new Set(ticks).size).toBe(ticks.length);
  });

  it('label 1 hour in whole minutes, on multiples of five', async () => {
    const ticks = await showRange('1m');
    await screenshot(page, 'history-1-hour');
    expect(ticks.length).toBeGreaterThanOrEqual(3);
    for (const tick of ticks) {
      expect(tick).toMatch(/^\d{2}:\d{2}$/);
      expect(minutesOf(tick) % 5).toBe(0);
    }
  });

  it('label 7 days by day', async () => {
    const ticks = await showRange('1h');
    await screenshot(page, 'history-7-days');
    expect(ticks.length).toBeGreaterThanOrEqual(3);
    for (const tick of ticks) expect(tick).toMatch(/^\S+ \d{1,2}$/);
    expect(new Set(ticks).size).toBe(ticks.length);
  });

  it('leave out of the legend the sensors this machine does not have', async () => {
    const snapshot = opened.collector.latest();
    const legend = await page.locator('figure[aria-label="Usage"] .u-legend .u-label').allTextContents();
    expect(legend).toEqual(expect.arrayContaining(['CPU', 'Memory', 'Swap']));
    expect(legend.includes('Temperature °C')).toBe(Boolean(snapshot?.temperatures));
    expect(legend.includes('Battery')).toBe(Boolean(snapshot?.battery));
  });

  it('name the load average and its minutes on the CPU card', async () => {
    const detail = page.locator('#cpu-detail', { hasText: 'load average' });
    await detail.waitFor();
    expect(await detail.textContent()).toMatch(
      /load average \d+\.\d\d, \d+\.\d\d, \d+\.\d\d \(1, 5, 15 min\)/,
    );
  });
});
