import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type BrowserContext, chromium, type Page } from 'playwright-core';
import { findChromium } from '../../../scripts/find-chromium.mjs';

/**
 * The Chromium to drive: `CHROMIUM_PATH` (which `npm test` sets after finding or installing
 * one), else the same search `npm test` makes (PATH, then Playwright's browser cache).
 */
export function chromiumPath(): string {
  const found = findChromium(process.env);
  if (found && 'path' in found) return found.path;
  throw new Error(
    found?.error ??
      'No Chromium found for the browser tests: run `npm test` (it installs one) or set CHROMIUM_PATH.',
  );
}

/** Flags that keep Chromium quiet and on loopback. */
export const CHROMIUM_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

/** Where screenshots go (git-ignored). */
export const ARTIFACTS_DIR = new URL('../test-results/', import.meta.url).pathname;

/** A headless Chromium with a fresh profile. */
export interface TestBrowser {
  context: BrowserContext;
  newPage(options?: { width?: number; height?: number; colorScheme?: 'light' | 'dark' }): Promise<Page>;
  close(): Promise<void>;
}

/** Launches Chromium with a throwaway user-data-dir; `extraArgs` add flags (a fake microphone, say). */
export async function launchBrowser(extraArgs: readonly string[] = []): Promise<TestBrowser> {
  const profile = mkdtempSync(join(tmpdir(), 'macstats-chromium-'));
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: chromiumPath(),
    headless: true,
    args: [...CHROMIUM_ARGS, ...extraArgs],
    viewport: { width: 1280, height: 860 },
  });
  return {
    context,
    async newPage(options = {}) {
      const page = await context.newPage();
      await page.setViewportSize({ width: options.width ?? 1280, height: options.height ?? 860 });
      if (options.colorScheme) await page.emulateMedia({ colorScheme: options.colorScheme });
      return page;
    },
    async close() {
      await context.close();
      rmSync(profile, { recursive: true, force: true });
    },
  };
}

/** Sends a chat message from the page's chat view and waits until its turn is finished. */
export async function askInChat(page: Page, message: string): Promise<void> {
  const before = await page.locator('.turn').count();
  await page.fill('#chat-input', message);
  await page.click('#chat-send');
  await page.locator('.turn').nth(before).and(page.locator('[data-status="done"]')).waitFor();
}

/** Saves a screenshot of the page under test-results/. */
export async function screenshot(page: Page, name: string, fullPage = false): Promise<string> {
  mkdirSync(ARTIFACTS_DIR, { recursive: true });
  const path = join(ARTIFACTS_DIR, `${name}.png`);
  await page.screenshot({ path, fullPage });
  return path;
}
