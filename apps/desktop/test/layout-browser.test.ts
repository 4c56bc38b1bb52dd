import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createTaskStore } from '@macstats/tasks';
import { type FakeOllama, startFakeOllama } from '@macstats/testing';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Dashboard, startDashboard } from '../src/server/dashboard.js';
import { launchBrowser, type TestBrowser } from './browser.js';
import { createScriptedMetrics, type ScriptedMetrics } from './scripted-metrics.js';

// What a person meets (issue 47), measured in Chromium: boxes, styles and scroll positions.
// The machine is scripted (48 MB/s in, 6 MB/s out), so the axes' ticks are known.

let fake: FakeOllama;
let home: string;
let metrics: ScriptedMetrics;
let dashboard: Dashboard;
let browser: TestBrowser;

beforeAll(async () => {
  fake = await startFakeOllama();
  home = mkdtempSync(join(tmpdir(), 'macstats-layout-'));
  metrics = createScriptedMetrics();
  await metrics.advance(90);
  dashboard = await startDashboard({
    home,
    ollama: { host: fake.url },
    collector: metrics.collector,
    scheduler: false,
    tasks: false,
  });
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
  await dashboard?.close();
  await fake?.close();
  rmSync(home, { recursive: true, force: true });
});

async function open(page: Page, view: string): Promise<void> {
  await page.goto(dashboard.url);
  await page.goto(`${dashboard.origin}/#${view}`);
}

describe('the dashboard laid out', () => {
  it('keeps every view of the nav in sight at phone width, wrapped rather than scrolled', async () => {
    const page = await browser.newPage({ width: 390, height: 844 });
    await open(page, 'metrics');
    const nav = await page.evaluate(() => {
      const element = document.querySelector('header nav') as HTMLElement;
      const links = [...element.querySelectorAll('a')].map((link) => {
        const box = link.getBoundingClientRect();
        const hit = document.elementFromPoint(box.left + box.width / 2, box.top + box.height / 2);
        return { text: link.textContent, left: box.left, right: box.right, onTop: link.contains(hit) };
      });
      return { scrolls: element.scrollWidth > element.clientWidth, links, width: window.innerWidth };
    });
    expect(nav.scrolls).toBe(false);
    expect(nav.links.map((link) => link.text)).toContain('Settings');
    for (const link of nav.links) {
      expect(link.left, link.text ?? '').toBeGreaterThanOrEqual(0);
      expect(link.right, link.text ?? '').toBeLessThanOrEqual(nav.width);
      expect(link.onTop, link.text ?? '').toBe(true);
    }
    // Choosing another view moves no link (the current one is not set in wider type).
    const places = () =>
      page.$$eval('header nav a', (links) =>
        links.map((link) => `${link.getBoundingClientRect().left},${link.getBoundingClientRect().top}`),
      );
    const before = await places();
    await page.click('header nav a[data-view="chat"]');
    await page.locator('header nav a[data-view="chat"][aria-current="page"]').waitFor();
    expect(await places()).toEqual(before);
    await page.close();
  });

  it('lets the metric cards shown fill the whole row', async () => {
    const page = await browser.newPage({ width: 1280, height: 800 });
    await open(page, 'metrics');
    await page.locator('#cpu-detail', { hasText: 'load average' }).waitFor();
    const row = await page.evaluate(() => {
      const cards = [...document.querySelectorAll<HTMLElement>('.cards .card')].filter(
        (card) => !card.hidden,
      );
      const grid = (document.querySelector('.cards') as HTMLElement).getBoundingClientRect();
      const top = cards[0]?.getBoundingClientRect().top;
      const first = cards.filter((card) => card.getBoundingClientRect().top === top);
      return {
        shown: cards.length,
        inFirstRow: first.length,
        right: Math.max(...first.map((card) => card.getBoundingClientRect().right)),
        gridRight: grid.right,
      };
    });
    // This machine has no temperature or battery: four cards, one row, to the grid's right edge.
    expect(row.shown).toBe(4);
    expect(row.inFirstRow).toBe(4);
    expect(row.gridRight - row.right).toBeLessThan(1);
    await page.close();
  });

  it("keeps a gauge's widest label, 100%, clear of its ring", async () => {
    const page = await browser.newPage({ width: 1280, height: 800 });
    await open(page, 'metrics');
    await page.locator('#card-cpu .gauge-label', { hasText: '%' }).waitFor();
    const clearance = await page.evaluate(() => {
      const gauge = document.querySelector('#card-cpu .gauge') as HTMLElement;
      const label = gauge.querySelector('.gauge-label') as HTMLElement;
      label.textContent = '100%';
      const ring = gauge.querySelector('.gauge-track') as SVGCircleElement;
      const svg = ring.ownerSVGElement as SVGSVGElement;
      const scale = svg.getBoundingClientRect().width / svg.viewBox.baseVal.width;
      const inner =
        (ring.r.baseVal.value - Number.parseFloat(getComputedStyle(ring).strokeWidth) / 2) * scale;
      const box = gauge.getBoundingClientRect();
      const text = document.createRange();
      text.selectNodeContents(label);
      const glyphs = text.getBoundingClientRect();
      // The text's farthest corner from the ring's centre, against the inside of the ring.
      const dx = Math.max(box.left + box.width / 2 - glyphs.left, glyphs.right - (box.left + box.width / 2));
      const dy = Math.max(box.top + box.height / 2 - glyphs.top, glyphs.bottom - (box.top + box.height / 2));
      return inner - Math.hypot(dx, dy);
    });
    // Before: the label's box crossed the ring (-0.3 px); now a few pixels are left.
    expect(clearance).toBeGreaterThanOrEqual(4);
    await page.close();
  });

  it('puts the throughput ticks on round numbers of the unit shown', async () => {
    const page = await browser.newPage({ width: 1280, height: 800 });
    await open(page, 'metrics');
    const chart = page.locator('figure.chart[aria-label="Network and disk"]');
    await page.waitForFunction(
      () =>
        (
          document.querySelector('figure.chart[aria-label="Network and disk"]') as HTMLElement | null
        )?.dataset['yTicks']?.includes('MB/s') ?? false,
    );
    const ticks = ((await chart.getAttribute('data-y-ticks')) ?? '').split('|');
    expect(ticks.length).toBeGreaterThanOrEqual(3);
    // Whole numbers of one unit, evenly spaced: 0 B/s, 20 MB/s, 40 MB/s (not 47.7 and 95.4).
    const mb = ticks.slice(1).map((tick) => {
      expect(tick).toMatch(/^\d+ MB\/s$/);
      return Number.parseInt(tick, 10);
    });
    expect(ticks[0]).toBe('0 B/s');
    for (const [index, value] of mb.entries()) expect(value).toBe((mb[0] ?? 0) * (index + 1));
    await page.close();
  });

  it("keeps a task's title on readable lines at phone width", async () => {
    const store = createTaskStore({ dir: join(home, 'tasks') });
    const task = await store.add({
      instructions:
        'Check the price of the blue kettle on shop.example every morning and tell me when it drops.',
    });
    const page = await browser.newPage({ width: 390, height: 844 });
    await open(page, 'tasks');
    const title = page.locator(`li.task[data-task-id="${task.id}"] .task-title`);
    await title.waitFor();
    // Squeezed beside the id, the title was 45 px wide, one word a line.
    expect((await title.boundingBox())?.width).toBeGreaterThan(180);
    await page.close();
  });

  it('leaves no gap for an empty status line, and lays the Settings sentence out as text', async () => {
    const page = await browser.newPage({ width: 1280, height: 800 });
    await open(page, 'notes');
    await page.locator('#note-list, #notes-empty').first().waitFor();
    const gaps = await page.evaluate(() => {
      const view = document.querySelector('#view-notes') as HTMLElement;
      // What shows in the column (an empty status line shows nothing).
      const children = [...view.children].filter((child) => child.getBoundingClientRect().height > 0);
      const rowGap = Number.parseFloat(getComputedStyle(view).rowGap);
      // Each visible element of the view's column follows the one before by the column's gap
      // plus their margins, never by a second gap for an empty line between them.
      const spaces = children.slice(1).map((child, index) => {
        const before = children[index] as HTMLElement;
        const margins =
          Number.parseFloat(getComputedStyle(before).marginBottom) +
          Number.parseFloat(getComputedStyle(child).marginTop);
        const space =
          child.getBoundingClientRect().top - before.getBoundingClientRect().bottom - margins - rowGap;
        return { pair: `${before.className} → ${child.className}`, space };
      });
      return spaces;
    });
    expect(gaps.length).toBeGreaterThanOrEqual(3);
    for (const { pair, space } of gaps) expect(Math.abs(space), pair).toBeLessThan(1);
    await page.goto(`${dashboard.origin}/#settings`);
    const sentence = page.locator('.settings-eval .note', { hasText: 'macstats eval' });
    await sentence.waitFor();
    expect(await sentence.evaluate((element) => getComputedStyle(element).display)).toBe('block');
    await page.close();
  });

  it("opens a task's steps under that task, in view, and closes them again", async () => {
    const store = createTaskStore({ dir: join(home, 'tasks') });
    const ids: string[] = [];
    for (let index = 1; index <= 12; index += 1)
      ids.push((await store.add({ instructions: `Errand number ${index}.` })).id);
    const page = await browser.newPage({ width: 1000, height: 600 });
    await open(page, 'tasks');
    // Newest first: the first task added is at the bottom, below the window.
    const chosen = page.locator(`li.task[data-task-id="${ids[0]}"]`);
    await chosen.locator('button[data-action="open"]').click();
    await chosen.locator('#task-detail h3', { hasText: /^Errand number 1\b/ }).waitFor();
    await page.waitForFunction(() => {
      const top = document.querySelector('#task-detail')?.getBoundingClientRect().top ?? -1;
      const header = document.querySelector('header.top')?.getBoundingClientRect().bottom ?? 0;
      return top >= header && top < window.innerHeight;
    });
    const boxes = await page.evaluate((id) => {
      const row = document.querySelector(`li.task[data-task-id="${id}"]`) as HTMLElement;
      const head = row.querySelector('.task-head') as HTMLElement;
      const detail = document.querySelector('#task-detail') as HTMLElement;
      const next = row.nextElementSibling?.getBoundingClientRect().top ?? Number.POSITIVE_INFINITY;
      return {
        headBottom: head.getBoundingClientRect().bottom,
        detailTop: detail.getBoundingClientRect().top,
        detailBottom: detail.getBoundingClientRect().bottom,
        rowBottom: row.getBoundingClientRect().bottom,
        next,
        expanded: row.querySelector('button[data-action="open"]')?.getAttribute('aria-expanded'),
      };
    }, ids[0] ?? '');
    expect(boxes.detailTop).toBeGreaterThan(boxes.headBottom);
    expect(boxes.detailBottom).toBeLessThanOrEqual(boxes.rowBottom);
    expect(boxes.next).toBeGreaterThanOrEqual(boxes.rowBottom);
    expect(boxes.expanded).toBe('true');
    await chosen.locator('button[data-action="open"]').click();
    await page.locator('#task-detail').waitFor({ state: 'detached' });
    expect(await chosen.locator('button[data-action="open"]').getAttribute('aria-expanded')).toBe('false');
    await page.close();
  });
});
