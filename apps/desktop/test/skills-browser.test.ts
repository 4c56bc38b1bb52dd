import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { createMetricsCollector } from '@macstats/metrics';
import { type FakeOllama, startFakeOllama } from '@macstats/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Dashboard, startDashboard } from '../src/server/dashboard.js';
import { launchBrowser, screenshot, type TestBrowser } from './browser.js';

let fake: FakeOllama;
let home: string;
let dashboard: Dashboard;
let browser: TestBrowser;
const collector = createMetricsCollector();

function write(files: Record<string, string>): void {
  for (const [file, text] of Object.entries(files)) {
    mkdirSync(dirname(join(home, file)), { recursive: true });
    writeFileSync(join(home, file), text);
  }
}

beforeAll(async () => {
  fake = await startFakeOllama({ reply: (request) => `${request.model} says hello.` });
  home = mkdtempSync(join(tmpdir(), 'macstats-skills-page-'));
  write({
    'skills/release-notes/SKILL.md':
      '---\nname: release-notes\ndescription: Summarises release notes.\n---\nThree bullets.\n',
    'skills/broken/SKILL.md': 'no front matter',
    'skills/haiku/SKILL.md': '---\nname: haiku\ndescription: Writes a haiku.\n---\nFive, seven, five.\n',
    // haiku's SKILL.md differs from what was accepted: withheld until trusted.
    'skill-pins.json': JSON.stringify({ skills: { haiku: { files: { 'SKILL.md': '0'.repeat(64) } } } }),
    'agents/research/AGENT.md':
      '---\nname: Research\ndescription: Looks things up.\nmodel: qwen2.5:7b\n---\nYou are the researcher.\n',
  });
  dashboard = await startDashboard({
    home,
    ollama: { host: fake.url, model: 'llama3.2:3b' },
    collector,
    scheduler: false,
  });
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
  await dashboard?.close();
  await fake?.close();
  rmSync(home, { recursive: true, force: true });
});

describe('skills and agents in the page', () => {
  it('lists the skills, the agents, what was skipped and the model roles', async () => {
    const page = await browser.newPage({ width: 1000, height: 900 });
    await page.goto(dashboard.url);
    await page.goto(`${dashboard.origin}/#skills`);
    await page.locator('#skills-list td', { hasText: 'release-notes' }).waitFor();
    expect(await page.locator('#agents-list').textContent()).toContain('qwen2.5:7b');
    expect(await page.locator('#skills-problems').textContent()).toContain(
      'The skill skills/broken has a SKILL.md that has no front matter',
    );
    await page.locator('#model-roles td', { hasText: 'tools' }).waitFor();
    expect(await page.locator('#model-roles code', { hasText: 'ollama pull' }).count()).toBeGreaterThan(0);
    expect(await page.locator('#model-roles').textContent()).not.toContain('`');
    await screenshot(page, 'skills-view');
    await page.close();
  });

  it('withholds a skill whose files changed, and offers it again once the change is accepted', async () => {
    const page = await browser.newPage({ width: 1000, height: 900 });
    await page.goto(dashboard.url);
    await page.goto(`${dashboard.origin}/#skills`);
    await page
      .locator('#skills-withheld li[data-skill="haiku"]', { hasText: '1 file changed (SKILL.md)' })
      .waitFor();
    expect(await page.locator('#skills-list').textContent()).not.toContain('haiku');
    await page.click('.skill-trust[data-skill="haiku"]');
    await page.locator('#skills-list td', { hasText: /^haiku$/ }).waitFor();
    expect(await page.locator('#skills-withheld').count()).toBe(0);
    await page.close();
  });

  it("answers as the agent picked in the chat, with that agent's model and prompt", async () => {
    const page = await browser.newPage({ width: 1000, height: 900 });
    await page.goto(dashboard.url);
    await page.goto(`${dashboard.origin}/#chat`);
    await page.locator('#chat-agent option[value="research"]').waitFor({ state: 'attached' });
    await page.selectOption('#chat-agent', 'research');
    await page.fill('#chat-input', 'What is new?');
    await page.click('#chat-send');
    await page.locator('.message.assistant', { hasText: 'qwen2.5:7b says hello.' }).waitFor();
    expect(await page.locator('.turn-agent').textContent()).toBe('Answered by the agent research');
    const request = fake.requests.at(-1);
    expect(request?.model).toBe('qwen2.5:7b');
    expect(request?.messages[0]?.content).toContain('You are the researcher.');
    expect(request?.messages[0]?.content).toContain('- release-notes: Summarises release notes.');
    await page.close();
  });
});
