import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { MetricsCollector } from '@macstats/metrics';
import type { FakeOllama } from '@macstats/testing';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Dashboard, startDashboard } from '../src/server/dashboard.js';
import { askInChat, screenshot, type TestBrowser } from './browser.js';
import { type DashboardPage, startDashboardPage } from './dashboard-page.js';
import { fakeModel, lastToolResult } from './fake-model.js';

let fake: FakeOllama;
let home: string;
let collector: MetricsCollector;
let dashboard: Dashboard;
let browser: TestBrowser;
let page: Page;

let opened: DashboardPage | undefined;

beforeAll(async () => {
  opened = await startDashboardPage({ fake: { reply: fakeModel }, dashboard: { runJsTimeoutMs: 1500 } });
  ({ fake, home, collector, dashboard, browser, page } = opened);
});

afterAll(() => opened?.close());

/** Sends a chat message and waits until its turn is finished. */
const ask = (message: string) => askInChat(page, message);

describe('the dashboard page', () => {
  it('is refused without the token', async () => {
    const response = await page.goto(`${dashboard.origin}/`);
    expect(response?.status()).toBe(401);
    expect(await page.textContent('body')).toMatch(/open the URL printed in the terminal/);
  });

  it('loads with the token from the printed URL, then drops it from the address bar', async () => {
    await page.goto(dashboard.url);
    expect(page.url()).toBe(`${dashboard.origin}/`);
    await page.locator('#card-cpu .gauge-label').filter({ hasText: /\d+%/ }).waitFor();
    expect(await page.isVisible('#view-metrics')).toBe(true);
  });

  it('updates the metrics live while the collector runs fast', async () => {
    const footer = page.locator('#metrics-updated');
    await footer.and(page.locator('[data-time]')).waitFor();
    const first = Number(await footer.getAttribute('data-time'));
    await page.waitForFunction(
      (before) => Number(document.querySelector('#metrics-updated')?.getAttribute('data-time')) > before,
      first,
    );
    expect(collector.speed).toBe('fast');
    await page.locator('#processes tbody tr').first().waitFor();
    expect(await page.locator('#processes tbody tr').count()).toBeGreaterThan(0);
    expect(await page.locator('.chart .uplot').count()).toBe(2);
    await screenshot(page, 'metrics', true);
  });

  it('answers a question through a tool, streaming the reply and showing the tool call', async () => {
    await page.goto(`${dashboard.origin}/#chat`);
    // Record every text the reply bubble shows, to see it grow token by token.
    await page.evaluate(() => {
      const seen: string[] = [];
      (window as unknown as { seen: string[] }).seen = seen;
      new MutationObserver(() => {
        const bubble = document.querySelector('.turn:last-child .message.assistant.streaming');
        const text = bubble?.textContent ?? '';
        if (text !== '' && seen[seen.length - 1] !== text) seen.push(text);
      }).observe(document.querySelector('.transcript') as Node, {
        subtree: true,
        childList: true,
        characterData: true,
      });
    });
    await ask('How busy is the CPU?');
    const turn = page.locator('.turn').last();
    await expect(turn.locator('.tool[data-tool="METRICS"]').getAttribute('class')).resolves.toContain(
      'tool-done',
    );
    expect(await turn.locator('.message.assistant').textContent()).toMatch(/^The tool said: .*CPU/);
    const seen = await page.evaluate(() => (window as unknown as { seen: string[] }).seen);
    expect(seen.length).toBeGreaterThan(3);
    expect(seen.every((text, index) => index === 0 || text.length >= (seen[index - 1]?.length ?? 0))).toBe(
      true,
    );
    await turn.locator('.tool summary').click();
    await screenshot(page, 'chat');
  });

  it('keeps the conversation across a reload', async () => {
    await page.reload();
    await page.locator('.turn').first().waitFor();
    expect(await page.locator('.message.user').first().textContent()).toBe('How busy is the CPU?');
    expect(await page.locator('.message.assistant').first().textContent()).toMatch(/^The tool said:/);
  });

  it('keeps each chat button label on one line in a narrow desktop window', async () => {
    await page.setViewportSize({ width: 1000, height: 860 });
    try {
      const lines = await page.evaluate(() =>
        ['#chat-send', '#chat-new'].map((selector) => {
          const range = document.createRange();
          range.selectNodeContents(document.querySelector(selector) as Node);
          return range.getClientRects().length;
        }),
      );
      expect(lines).toEqual([1, 1]);
    } finally {
      await page.setViewportSize({ width: 1280, height: 860 });
    }
  });

  it('shows what the model calls cost the machine, with the turn and on the metrics view', async () => {
    expect(await page.locator('.turn-status').last().textContent()).toMatch(
      /tokens\/s · CPU \d+% while the model ran/,
    );
    await page.goto(`${dashboard.origin}/#metrics`);
    await page.locator('#inference tbody tr').nth(1).waitFor();
    expect(await page.locator('#inference-summary').textContent()).toMatch(
      /^2 calls · mean [\d.]+ tokens\/s/,
    );
    await page.goto(`${dashboard.origin}/#chat`);
    await page.locator('.turn').first().waitFor();
  });

  it('runs RUN_JS in the page and gives the result back to the agent', async () => {
    await ask('run this JavaScript: [1, 2, 3].map((n) => n * 7).join("+")');
    const turn = page.locator('.turn').last();
    expect(await turn.locator('.tool[data-tool="RUN_JS"]').getAttribute('class')).toContain('tool-done');
    expect(lastToolResult(fake.requests)).toContain('Result: 7+14+21');
    expect(await turn.locator('.message.assistant').textContent()).toContain('7+14+21');
  });

  it('stops an endless loop in RUN_JS at its time limit', async () => {
    await ask('run this JavaScript: while (true) {}');
    const turn = page.locator('.turn').last();
    expect(await turn.locator('.tool[data-tool="RUN_JS"]').getAttribute('class')).toContain('tool-failed');
    expect(lastToolResult(fake.requests)).toContain(
      'Stopped: the code ran longer than the 1500 ms time limit.',
    );
    // The page is still responsive: the loop ran in the worker, not on the page's thread.
    expect(await page.evaluate(() => 1 + 1)).toBe(2);
  });

  it('gives RUN_JS code no network, not even through the worker global prototype', async () => {
    const code =
      'typeof fetch + " " + typeof XMLHttpRequest + " " + typeof importScripts + " " + String(await (async () => { ' +
      'const found = Object.getPrototypeOf(Object.getPrototypeOf(globalThis)).fetch; ' +
      'if (typeof found !== "function") return "no fetch to recover"; ' +
      'try { const r = await found.call(globalThis, "/api/state"); return "fetched " + r.status; } ' +
      'catch (e) { return "blocked " + e.name; } })())';
    await ask(`run this JavaScript: ${code}`);
    const result = lastToolResult(fake.requests) ?? '';
    expect(result).toContain('Result: undefined undefined undefined no fetch to recover');
  });
});

describe('schedules in the page', () => {
  it('shows a validation message for a bad cron line', async () => {
    await page.goto(`${dashboard.origin}/#schedules`);
    await page.click('#schedule-add');
    await page.fill('#schedule-form [name=id]', 'bad-cron');
    await page.fill('#schedule-form [name=task]', 'FETCH_URL: https://example.com');
    await page.fill('#schedule-form [name=cron]', '61 * * * *');
    await page.click('#schedule-form button[type=submit]');
    // The message comes back from the server: wait until the form shows one, then read it.
    const message = page.locator('#schedule-form .form-error', { hasText: /\S/ });
    await message.waitFor();
    expect(await message.textContent()).toMatch(/cron|minute|61/i);
    await page.click('#schedule-form button.ghost');
  });

  it('adds a schedule and shows it with its next runs', async () => {
    await page.click('#schedule-add');
    await page.fill('#schedule-form [name=id]', 'morning-report');
    await page.fill('#schedule-form [name=task]', 'How busy was the CPU overnight?');
    await page.fill('#schedule-form [name=cron]', '0 9 * * *');
    await page.fill('#schedule-form [name=timezone]', 'UTC');
    await page.locator('#schedule-form .preview .next-runs li').nth(2).waitFor();
    await screenshot(page, 'schedule-form');
    await page.click('#schedule-form button[type=submit]');
    const entry = page.locator('[data-schedule="morning-report"]');
    await entry.locator('.next-runs li').nth(2).waitFor();
    expect(await entry.locator('.next-runs time').first().getAttribute('datetime')).toMatch(
      /T09:00:00\.000Z$/,
    );
    const file = JSON.parse(readFileSync(join(home, 'schedules.json'), 'utf8'));
    expect(file.schedules).toContainEqual({
      id: 'morning-report',
      task: 'How busy was the CPU overnight?',
      cron: '0 9 * * *',
      timezone: 'UTC',
    });
    expect(await page.textContent('#schedules-status')).toBe('This dashboard runs the schedules.');
    await screenshot(page, 'schedules', true);
  });

  it('edits a one-shot written with an offset without moving it', async () => {
    const created = await page.evaluate(() =>
      fetch('/api/schedules', {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify({
          schedule: {
            id: 'call-home',
            task: 'Remind me to call home',
            at: '2099-03-01T09:00:00+05:00',
            timezone: 'Europe/Berlin',
          },
        }),
      }).then((response) => response.status),
    );
    expect(created).toBe(201);
    const entry = page.locator('[data-schedule="call-home"]');
    await entry.locator('button', { hasText: 'Edit' }).click();
    expect(await page.inputValue('#schedule-form [name=at]')).toBe('2099-03-01T05:00');
    await page.fill('#schedule-form [name=task]', 'Remind me to call home tonight');
    await page.click('#schedule-form button[type=submit]');
    await entry.filter({ hasText: 'tonight' }).waitFor();
    const file = JSON.parse(readFileSync(join(home, 'schedules.json'), 'utf8'));
    const saved = file.schedules.find((schedule: { id: string }) => schedule.id === 'call-home');
    expect(saved).toEqual({
      id: 'call-home',
      task: 'Remind me to call home tonight',
      at: '2099-03-01T05:00',
      timezone: 'Europe/Berlin',
    });
    expect(await entry.locator('.next-runs time').first().getAttribute('datetime')).toBe(
      '2099-03-01T04:00:00.000Z',
    );
  });
});

describe('another web page on this machine', () => {
  let evil: Server;
  let evilOrigin: string;

  beforeAll(async () => {
    evil = createServer((_request, response) => {
      response.writeHead(200, { 'Content-Type': 'text/html; charset=utf-8' });
      response.end('<!doctype html><title>evil</title><p>evil</p>');
    });
    await new Promise<void>((resolve) => evil.listen(0, '127.0.0.1', resolve));
    evilOrigin = `http://127.0.0.1:${(evil.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    evil.closeAllConnections();
    await new Promise<void>((resolve) => evil.close(() => resolve()));
  });

  it('can neither read the dashboard nor act on it, though the browser holds its cookie', async () => {
    const other = await browser.newPage();
    await other.goto(`${evilOrigin}/`);
    const outcome = await other.evaluate(async (target) => {
      const results: Record<string, string> = {};
      try {
        const response = await fetch(`${target}/api/state`, { credentials: 'include' });
        results['read'] = `read ${response.status}`;
      } catch (error) {
        results['read'] = `blocked ${(error as Error).name}`;
      }
      const body = JSON.stringify({ conversationId: 'evil', clientId: 'evil', message: 'RUN_CMD: ls' });
      await fetch(`${target}/api/chat`, {
        method: 'POST',
        mode: 'no-cors',
        credentials: 'include',
        body,
      }).catch(() => {});
      results['stream'] = await new Promise<string>((resolve) => {
        const source = new EventSource(`${target}/api/stream`, { withCredentials: true });
        source.onopen = () => resolve('open');
        source.onerror = () => resolve('error');
      });
      return results;
    }, dashboard.origin);
    expect(outcome).toEqual({ read: 'blocked TypeError', stream: 'error' });
    // The POST reached the server with the cookie and was refused: no conversation was started.
    const transcript = await page.evaluate(() =>
      fetch('/api/conversations/evil').then((response) => response.json()),
    );
    expect(transcript).toEqual({ id: 'evil', turns: [] });
    await other.close();
  });
});

describe('when Ollama is not running', () => {
  let offline: Dashboard;
  let offlineHome: string;

  beforeAll(async () => {
    offlineHome = mkdtempSync(join(tmpdir(), 'macstats-offline-'));
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const deadPort = (closed.address() as AddressInfo).port;
    await new Promise<void>((resolve) => closed.close(() => resolve()));
    offline = await startDashboard({
      home: offlineHome,
      ollama: { host: `http://127.0.0.1:${deadPort}` },
      collector,
    });
  });
  afterAll(async () => {
    await offline.close();
    rmSync(offlineHome, { recursive: true, force: true });
  });

  it('shows a banner with the fix, and Settings points the chat at a running Ollama', async () => {
    const narrow = await browser.newPage({ width: 380, height: 820, colorScheme: 'dark' });
    await narrow.goto(offline.url);
    const banner = narrow.locator('#banner');
    await banner.filter({ hasText: 'Ollama is not reachable' }).waitFor();
    expect(await banner.textContent()).toContain('ollama serve');
    expect(await narrow.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);
    await screenshot(narrow, 'banner-narrow-dark', true);

    await narrow.goto(`${offline.origin}/#settings`);
    await narrow.fill('#settings-host', fake.url);
    await narrow.click('.settings-form button[type=submit]');
    await banner.waitFor({ state: 'hidden' });
    // The banner hides on the first check that reaches Ollama; the model list fills after its own.
    await narrow.locator('#settings-model option', { hasText: 'gemma2:2b' }).waitFor({ state: 'attached' });
    await expect(narrow.locator('#settings-model option').allTextContents()).resolves.toEqual([
      'Automatic (llama3.2:3b)',
      'llama3.2:3b',
      'qwen2.5:7b',
      'gemma2:2b',
    ]);
    expect(readFileSync(join(offlineHome, '.config.env'), 'utf8')).toBe(`OLLAMA_HOST=${fake.url}\n`);
    await screenshot(narrow, 'settings-narrow-dark');
    await narrow.close();
  });
});

describe('when Ollama takes the connection and never answers', () => {
  let silent: Server;
  let stuck: Dashboard;
  let stuckHome: string;

  beforeAll(async () => {
    stuckHome = mkdtempSync(join(tmpdir(), 'macstats-silent-'));
    silent = createServer(() => {});
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    const host = `http://127.0.0.1:${(silent.address() as AddressInfo).port}`;
    stuck = await startDashboard({ home: stuckHome, ollama: { host }, collector });
  });
  afterAll(async () => {
    await stuck.close();
    silent.closeAllConnections();
    await new Promise((resolve) => silent.close(resolve));
    rmSync(stuckHome, { recursive: true, force: true });
  });

  it('keeps the address typed in Settings while the slow check comes back, and saves it', async () => {
    const settings = await browser.newPage();
    await settings.goto(stuck.url);
    await settings.goto(`${stuck.origin}/#settings`);
    await settings.fill('#settings-host', fake.url);
    // The check of the silent address ends at its time limit and the view fills in.
    await settings.locator('.settings-status').filter({ hasText: 'not reachable' }).waitFor();
    expect(await settings.inputValue('#settings-host')).toBe(fake.url);
    await settings.click('.settings-form button[type=submit]');
    await settings
      .locator('.settings-status')
      .filter({ hasText: `at ${fake.url}:` })
      .waitFor();
    await settings.close();
  });
});

describe('the collector speed', () => {
  it('falls back to slow once no page is open', async () => {
    await page.close();
    await expect.poll(() => collector.speed, { timeout: 15_000 }).toBe('slow');
  });
});
