import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createMetricsCollector } from '@macstats/metrics';
import { createTaskStore } from '@macstats/tasks';
import {
  type FakeChatRequest,
  type FakeOllama,
  type FakeOllamaReply,
  startFakeOllama,
} from '@macstats/testing';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Dashboard, startDashboard } from '../src/server/dashboard.js';
import { askInChat, launchBrowser, screenshot, type TestBrowser } from './browser.js';

// A server on loopback that an answer points images and links at: the page must send it nothing.
let tracker: Server;
let trackerUrl: string;
const trackerHits: string[] = [];

/** What the model answers: Markdown with every kind of block, and markup that must stay text. */
function answer(): string {
  return [
    '**CPU load** is low:',
    '',
    '- user: 12.3%',
    '- system: 4.1%',
    '',
    '| core | load |',
    '| --- | --- |',
    '| 0 | 11% |',
    '',
    '```sh',
    'uptime && echo "<b>done</b>"',
    '```',
    '',
    `![a chart](${trackerUrl}/chart.png) <img src="${trackerUrl}/raw.png"> <script>window.pwned = 1</script>`,
    '',
    `[the docs](https://example.com/docs) and [a trap](javascript:window.pwned=2) and <a href="${trackerUrl}/a">raw</a>`,
  ].join('\n');
}

function script(request: FakeChatRequest): FakeOllamaReply {
  const text = request.messages.map((message) => message.content).join('\n');
  if (!request.tools || request.tools.length === 0) return 'A short summary.';
  if (text.includes('will be marked done')) return 'Noted:\n\n- user: 12.3%\n- system: 4.1%';
  if (text.includes('Report the load')) return 'TASK: done **Load** is `0.42` now.';
  if (text.includes('missing model')) return { fault: 'model-not-found' };
  return answer();
}

let fake: FakeOllama;
let home: string;
let dashboard: Dashboard;
let browser: TestBrowser;
let page: Page;

beforeAll(async () => {
  tracker = createServer((request, response) => {
    trackerHits.push(request.url ?? '');
    response.end();
  });
  await new Promise<void>((resolve) => tracker.listen(0, '127.0.0.1', resolve));
  trackerUrl = `http://127.0.0.1:${(tracker.address() as AddressInfo).port}`;
  fake = await startFakeOllama({ reply: script });
  home = mkdtempSync(join(tmpdir(), 'macstats-markdown-'));
  dashboard = await startDashboard({
    home,
    ollama: { host: fake.url },
    collector: createMetricsCollector(),
    scheduler: false,
  });
  browser = await launchBrowser();
  page = await browser.newPage();
  await page.goto(dashboard.url);
  await page.goto(`${dashboard.origin}/#chat`);
  await askInChat(page, 'How busy is the CPU?');
});

afterAll(async () => {
  await browser?.close();
  await dashboard?.close();
  await fake?.close();
  await new Promise<void>((resolve) => tracker?.close(() => resolve()));
  rmSync(home, { recursive: true, force: true });
});

const reply = () => page.locator('.message.assistant').last();

describe('Markdown in the dashboard', () => {
  it('renders an answer’s emphasis, list, table and code block', async () => {
    expect(await reply().locator('strong').first().textContent()).toBe('CPU load');
    expect(await reply().locator('ul > li').allTextContents()).toEqual(['user: 12.3%', 'system: 4.1%']);
    expect(await reply().locator('table th').allTextContents()).toEqual(['core', 'load']);
    expect(await reply().locator('table td').allTextContents()).toEqual(['0', '11%']);
    expect(await reply().locator('pre.code').textContent()).toBe('uptime && echo "<b>done</b>"');
    await screenshot(page, 'chat-markdown');
  });

  it('keeps script and HTML in an answer as text', async () => {
    const html = await reply().innerHTML();
    expect(await reply().locator('script, img, iframe, b').count()).toBe(0);
    expect(html).not.toMatch(/<(script|img)\b/);
    expect(await reply().textContent()).toContain('<script>window.pwned = 1</script>');
    expect(await reply().textContent()).toContain(`<img src="${trackerUrl}/raw.png">`);
    expect(await page.evaluate(() => (window as { pwned?: number }).pwned)).toBeUndefined();
  });

  it('links only http, https and mailto addresses, with rel noopener noreferrer', async () => {
    const links = await reply()
      .locator('a')
      .evaluateAll((anchors) =>
        anchors.map((a) => ({
          text: a.textContent,
          href: a.getAttribute('href'),
          rel: a.getAttribute('rel'),
        })),
      );
    expect(links).toEqual([
      { text: 'Image: a chart', href: `${trackerUrl}/chart.png`, rel: 'noopener noreferrer' },
      { text: 'the docs', href: 'https://example.com/docs', rel: 'noopener noreferrer' },
    ]);
    expect(await reply().textContent()).toContain('a trap');
  });

  it('loads nothing an answer names, and the page’s policy refuses a remote image put there anyway', async () => {
    // A request the page sends reaches the tracker before this same-origin round trip returns.
    const blocked = page.waitForEvent('console', (message) => /Content Security Policy/.test(message.text()));
    await page.evaluate((url) => {
      const image = document.createElement('img');
      image.src = `${url}/forced.png`;
      document.body.append(image);
    }, trackerUrl);
    await blocked;
    await page.evaluate(() => fetch('/api/conversations').then((response) => response.text()));
    expect(trackerHits).toEqual([]);
  });

  it('renders a task step’s reply and outcome as Markdown', async () => {
    const store = createTaskStore({ dir: join(home, 'tasks') });
    const task = await store.add({ instructions: 'Report the load.' });
    await page.goto(`${dashboard.origin}/#tasks`);
    const row = page.locator(`li.task[data-task-id="${task.id}"][data-state="done"]`);
    await row.waitFor();
    expect(await row.locator('.task-outcome strong').textContent()).toBe('Load');
    expect(await row.locator('.task-outcome code').textContent()).toBe('0.42');
    await row.locator('button[data-action="open"]').click();
    const reply = page.locator('#task-steps .task-step[data-step="1"] .task-reply');
    await reply.waitFor();
    expect(await reply.locator('li').allTextContents()).toEqual(['user: 12.3%', 'system: 4.1%']);
  });

  it('shows the `commands` of a failed answer as code, not raw backticks', async () => {
    await page.goto(`${dashboard.origin}/#chat`);
    await page.fill('#chat-input', 'Answer with the missing model.');
    await page.click('#chat-send');
    const failed = page.locator('.message.assistant.failed').last();
    await failed.waitFor();
    expect(await failed.locator('code').first().textContent()).toMatch(/^ollama pull /);
    expect(await failed.textContent()).not.toContain('`');
  });
});
