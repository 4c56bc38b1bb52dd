import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { createInterface } from 'node:readline';
import { setTimeout as delay } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';
import type { ToolContext, ToolResult } from '@macstats/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createBrowserTool } from '../src/index.js';
import { browserPids, isAlive } from './fixtures/pids.mjs';
import { html, startSite, type TestSite } from './site.js';

let site: TestSite;

const context = (conversationId = 'life'): ToolContext => ({
  signal: new AbortController().signal,
  conversationId,
});
const asResult = (value: string | ToolResult): ToolResult =>
  typeof value === 'string' ? { text: value } : value;

/** Waits until every pid has ended: a state, polled; the test's own timeout bounds it. */
async function untilGone(pids: readonly number[]): Promise<void> {
  while (pids.some(isAlive)) await delay(50);
}

beforeAll(async () => {
  site = await startSite(() => ({
    '/': html('<title>Home</title><h1>Home page</h1><a href="/next">Next</a>'),
    '/next': html('<title>Next</title><h1>Second page</h1>'),
  }));
});

afterAll(() => site?.close());

describe('the browser lifecycle', () => {
  it('starts on first use and leaves no Chromium after close()', async () => {
    const browser = createBrowserTool({ allowHosts: ['127.0.0.1'] });
    expect(browserPids(process.pid)).toEqual([]);
    await browser.run(`open ${site.origin}/`, context());
    const pids = browserPids(process.pid);
    expect(pids.length).toBeGreaterThan(0);
    await browser.close();
    await untilGone(pids);
    expect(browserPids(process.pid)).toEqual([]);
  });

  it('relaunches after the browser is killed mid-answer and says so in one sentence', async () => {
    const browser = createBrowserTool({ allowHosts: ['127.0.0.1'] });
    try {
      const first = asResult(await browser.run(`open ${site.origin}/`, context()));
      expect(first.text).toContain('# Home page');
      const pids = browserPids(process.pid);
      for (const pid of pids) process.kill(pid, 'SIGKILL');
      await untilGone(pids);
      const next = asResult(await browser.run(`open ${site.origin}/next`, context()));
      expect(next.isError).toBeFalsy();
      expect(next.text).toMatch(
        /^The browser had stopped and was started again; pages opened before are gone\.\n/,
      );
      expect(next.text).toContain('# Second page');
      const again = asResult(await browser.run('read', context()));
      expect(again.text).not.toContain('started again');
    } finally {
      await browser.close();
    }
  });

  it('opens the page on a new browser when the old one dies under the action, before anyone noticed', async () => {
    const browser = createBrowserTool({ allowHosts: ['127.0.0.1'] });
    try {
      await browser.run(`open ${site.origin}/`, context());
      // No wait for the processes to go: the action starts on a browser that is dying.
      for (const pid of browserPids(process.pid)) process.kill(pid, 'SIGKILL');
      const next = asResult(await browser.run(`open ${site.origin}/next`, context()));
      expect(next.isError).toBeFalsy();
      expect(next.text).toContain('started again');
      expect(next.text).toContain('# Second page');
    } finally {
      await browser.close();
    }
  });

  it('keeps a page per conversation', async () => {
    const browser = createBrowserTool({ allowHosts: ['127.0.0.1'] });
    try {
      await browser.run(`open ${site.origin}/`, context('a'));
      await browser.run(`open ${site.origin}/next`, context('b'));
      expect(asResult(await browser.run('read', context('a'))).text).toContain('# Home page');
      expect(asResult(await browser.run('read', context('b'))).text).toContain('# Second page');
    } finally {
      await browser.close();
    }
  });

  for (const signal of ['SIGTERM', 'SIGKILL'] as const) {
    it(`leaves no Chromium behind when the app gets ${signal}`, async () => {
      const app = spawn(
        process.execPath,
        [fileURLToPath(new URL('./fixtures/app.mjs', import.meta.url)), `${site.origin}/`],
        {
          stdio: ['ignore', 'pipe', 'inherit'],
        },
      );
      const [line] = (await once(createInterface({ input: app.stdout }), 'line')) as [string];
      const { text, pids } = JSON.parse(line) as { text: string; pids: number[] };
      expect(text).toContain('# Home page');
      expect(pids.length).toBeGreaterThan(0);
      app.kill(signal);
      await once(app, 'exit');
      await untilGone(pids);
      expect(pids.filter(isAlive)).toEqual([]);
    });
  }
});
