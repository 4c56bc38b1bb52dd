// Regenerates docs/images/desktop-dashboard.png: the dashboard on this machine, its metrics
// view after half a minute of live samples and two answers of a scripted model.
// Run: pnpm --filter @macstats/desktop exec tsx scripts/docs-screenshot.ts
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { startFakeOllama } from '@macstats/testing';
import { startDashboard } from '../src/server/dashboard.js';
import { launchBrowser } from '../test/browser.js';
import { fakeModel } from '../test/fake-model.js';

const output = fileURLToPath(new URL('../../../docs/images/desktop-dashboard.png', import.meta.url));
const home = mkdtempSync(join(tmpdir(), 'macstats-docs-'));
const fake = await startFakeOllama({ reply: fakeModel });
const dashboard = await startDashboard({ home, ollama: { host: fake.url } });
const browser = await launchBrowser();
try {
  const page = await browser.newPage({ width: 1000, height: 820, colorScheme: 'light' });
  await page.goto(dashboard.url);
  await page.goto(`${dashboard.origin}/#chat`);
  for (const question of ['How busy is the CPU?', 'run this JavaScript: Math.round(Math.PI * 1e6) / 1e6']) {
    const before = await page.locator('.turn').count();
    await page.fill('#chat-input', question);
    await page.click('#chat-send');
    await page.locator('.turn').nth(before).and(page.locator('[data-status="done"]')).waitFor();
  }
  await page.goto(`${dashboard.origin}/#metrics`);
  await page.waitForTimeout(30_000);
  await page.screenshot({ path: output, fullPage: false });
  console.log(`${output}: ${(statSync(output).size / 1024).toFixed(0)} KB`);
} finally {
  await browser.close();
  await dashboard.close();
  await fake.close();
  rmSync(home, { recursive: true, force: true });
}
