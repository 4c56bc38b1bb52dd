import { mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  buildConfiguredTools,
  type ConfiguredTools,
  type McpServerSet,
  mcpSignInSurface,
} from '@macstats/app-runtime';
import { silentLogger } from '@macstats/core';
import { createMetricsCollector } from '@macstats/metrics';
import {
  type FakeOAuthMcpServer,
  type FakeOllama,
  startFakeOAuthMcpServer,
  startFakeOllama,
} from '@macstats/testing';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Dashboard, startDashboard } from '../src/server/dashboard.js';
import { launchBrowser, type TestBrowser } from './browser.js';

// A remote MCP server that requires sign-in, configured in mcp.json: Settings offers "Sign in",
// the page opens the authorization URL (the fake authorization server approves at once and
// redirects to the loopback listener), and the server's tools are offered without a restart.

let fake: FakeOllama;
let server: FakeOAuthMcpServer;
let refusingServer: FakeOAuthMcpServer;
let home: string;
let configured: ConfiguredTools;
let mcp: McpServerSet;
let dashboard: Dashboard;
let browser: TestBrowser;
let page: Page;

beforeAll(async () => {
  fake = await startFakeOllama();
  server = await startFakeOAuthMcpServer();
  refusingServer = await startFakeOAuthMcpServer();
  refusingServer.denyAuthorizations();
  home = mkdtempSync(join(tmpdir(), 'macstats-mcp-sign-in-page-'));
  writeFileSync(
    join(home, 'mcp.json'),
    JSON.stringify({
      mcpServers: {
        remote: { url: server.url },
        refusing: { url: refusingServer.url },
        local: { command: 'true' },
      },
    }),
  );
  const settings = { home, setting: () => undefined };
  // The servers as the dashboard's main connects them: from mcp.json, with the home's sign-ins.
  configured = await buildConfiguredTools(settings, { logger: silentLogger, path: undefined });
  mcp = configured.mcp as McpServerSet;
  dashboard = await startDashboard({
    home,
    ollama: { host: fake.url },
    collector: createMetricsCollector(),
    tools: [mcp.tool],
    mcp,
    mcpSignIn: await mcpSignInSurface(settings),
    scheduler: false,
  });
  browser = await launchBrowser();
  page = await browser.newPage();
});
afterAll(async () => {
  await browser?.close();
  await dashboard?.close();
  await configured?.close();
  await server?.close();
  await refusingServer?.close();
  await fake?.close();
  rmSync(home, { recursive: true, force: true });
});

describe('signing in to a remote MCP server from Settings', () => {
  it('opens the authorization URL, keeps the tokens 0600 and offers the tools', async () => {
    await page.goto(`${dashboard.url}#settings`);
    const remote = page.locator('[data-server="remote"]');
    await remote.locator('button.mcp-sign-in').waitFor();
    expect(await page.locator('[data-server="local"] button.mcp-sign-in').count()).toBe(0);
    // The button keeps its distance from the line's last word.
    const gap = await remote.locator('button.mcp-sign-in').evaluate((button) => {
      const words = document.createRange();
      words.selectNodeContents(button.previousSibling as Node);
      return button.getBoundingClientRect().left - words.getBoundingClientRect().right;
    });
    expect(gap).toBeGreaterThanOrEqual(6);

    const opened = browser.context.waitForEvent('page');
    await remote.locator('button.mcp-sign-in').click();
    const popup = await opened;
    await popup.locator('body', { hasText: 'Signed in.' }).waitFor();
    // After the browser comes back: the token exchange, the sign-in's probe connection and the
    // reconnection, three MCP handshakes, then the page's next look (every 2 s). A whole
    // `npm test` on two cores once took longer than Playwright's default 30 s for that; this is
    // a limit for a hung sign-in, not a speed check.
    const ended = remote.filter({ hasText: '2 tools offered' }).or(remote.locator('.mcp-sign-in-problem'));
    await ended.first().waitFor({ timeout: 120_000 });
    expect(await remote.locator('.mcp-sign-in-problem').allTextContents()).toEqual([]);

    expect(statSync(join(home, 'mcp-auth', 'remote.json')).mode & 0o777).toBe(0o600);
    expect(server.record.grants).toEqual(['authorization_code']);
    expect(mcp.connections.get('remote')?.tools.map((tool) => tool.name)).toEqual(['echo', 'private_notes']);
    expect(await remote.locator('.mcp-sign-in').count()).toBe(0);
    // The link to open is gone once the sign-in has ended; the line says how it ended.
    await page.locator('.settings-mcp .form-message', { hasText: 'Signed in to remote.' }).waitFor();
    expect(await page.locator('.mcp-sign-in-url').count()).toBe(0);
  });

  it('says beside the server when the user refuses the sign-in', async () => {
    await page.goto(`${dashboard.url}#settings`);
    const refusing = page.locator('[data-server="refusing"]');
    const opened = browser.context.waitForEvent('page');
    await refusing.locator('button.mcp-sign-in').click();
    await (await opened).locator('body', { hasText: 'The sign-in did not succeed' }).waitFor();
    await refusing.locator('.mcp-sign-in-problem').waitFor({ timeout: 120_000 });
    expect(await refusing.locator('.mcp-sign-in-problem').textContent()).toBe(
      'The sign-in failed: The authorization server refused the sign-in: access_denied (the user said no).',
    );
    expect(await refusing.locator('button.mcp-sign-in').textContent()).toBe('Sign in');
    expect(mcp.connections.get('refusing')?.status).not.toBe('connected');
  });

  it('refuses a local server with one sentence', async () => {
    await page.goto(`${dashboard.url}#settings`);
    // The page's own call: same origin, the token cookie.
    const response = await page.evaluate(async () => {
      const answer = await fetch('/api/mcp/local/sign-in', {
        method: 'POST',
        credentials: 'same-origin',
        headers: { 'Content-Type': 'application/json' },
        body: '{}',
      });
      return { status: answer.status, body: (await answer.json()) as { error: string } };
    });
    expect(response).toEqual({
      status: 400,
      body: { error: 'MCP server "local" runs locally (stdio); only remote servers sign in.' },
    });
  });
});
