import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { createMetricsCollector } from '@macstats/metrics';
import { createTaskStore } from '@macstats/tasks';
import { type FakeOllama, startFakeOllama } from '@macstats/testing';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Dashboard, startDashboard } from '../src/server/dashboard.js';
import { launchBrowser, type TestBrowser } from './browser.js';

// What the page says when nothing it lists can be used: every skill withheld, an mcp.json entry
// left out. It must say why, not "none".
// A sentence as the dashboard is given it (written here with `code`, as doctor's fixes have).
const MCP_PROBLEM = 'mcp.json: server "broken" needs a `command` or a `url`.';

let fake: FakeOllama;
let home: string;
let dashboard: Dashboard;
let browser: TestBrowser;
let page: Page;

beforeAll(async () => {
  fake = await startFakeOllama();
  home = mkdtempSync(join(tmpdir(), 'macstats-notices-'));
  const files: Record<string, string> = {
    'skills/haiku/SKILL.md': '---\nname: haiku\ndescription: Writes a haiku.\n---\nFive, seven, five.\n',
    // haiku's SKILL.md differs from what was accepted: withheld until trusted.
    'skill-pins.json': JSON.stringify({ skills: { haiku: { files: { 'SKILL.md': '0'.repeat(64) } } } }),
  };
  for (const [file, text] of Object.entries(files)) {
    mkdirSync(dirname(join(home, file)), { recursive: true });
    writeFileSync(join(home, file), text);
  }
  dashboard = await startDashboard({
    home,
    ollama: { host: fake.url },
    collector: createMetricsCollector(),
    scheduler: false,
    tasks: false,
    mcpProblems: [MCP_PROBLEM],
  });
  browser = await launchBrowser();
  page = await browser.newPage();
  await page.goto(dashboard.url);
});
afterAll(async () => {
  await browser?.close();
  await dashboard?.close();
  await fake?.close();
  rmSync(home, { recursive: true, force: true });
});

describe('what the page says when nothing can be used', () => {
  it('says the installed skills are withheld, not that none are installed', async () => {
    await page.goto(`${dashboard.origin}/#skills`);
    await page.locator('#skills-withheld li[data-skill="haiku"]').waitFor();
    const view = (await page.locator('#view-skills').textContent()) ?? '';
    expect(view).toContain(
      'No skills are offered: the installed ones changed since you accepted them (below).',
    );
    expect(view).not.toContain('No skills are installed.');
  });

  it('lists the mcp.json entry left out in Settings, its `command` as code', async () => {
    await page.goto(`${dashboard.origin}/#settings`);
    const problem = page.locator('#mcp-problems li');
    await problem.waitFor();
    expect(await problem.textContent()).toBe('mcp.json: server "broken" needs a command or a url.');
    expect(await problem.locator('code').allTextContents()).toEqual(['command', 'url']);
    expect(await page.locator('#mcp-servers').textContent()).toBe('No MCP server can be used: see below.');
  });

  it("scrolls a task's steps into view when Steps is pressed below a long list", async () => {
    const store = createTaskStore({ dir: join(home, 'tasks') });
    const ids: string[] = [];
    for (let index = 1; index <= 20; index += 1)
      ids.push((await store.add({ instructions: `Errand number ${index}.` })).id);
    await page.setViewportSize({ width: 1000, height: 600 });
    await page.goto(`${dashboard.origin}/#tasks`);
    const first = page.locator(`li.task[data-task-id="${ids[0]}"]`);
    await first.locator('button[data-action="open"]').click();
    await page.locator('#task-detail h3', { hasText: /^Errand number 1\b/ }).waitFor();
    // The detail's top is within the window once it is shown, wherever the list ends.
    await page.waitForFunction(() => {
      const top = document.querySelector('#task-detail')?.getBoundingClientRect().top ?? -1;
      return top >= 0 && top < window.innerHeight;
    });
    expect(await page.evaluate(() => window.scrollY)).toBeGreaterThan(0);
  });
});
