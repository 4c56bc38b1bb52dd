// Saves every view of the dashboard at desktop (1280×800) and phone (390×844) width, in the light
// and the dark theme, to docs/images/<view>-<width>-<scheme>.png: the dashboard on the fakes of
// @macstats/testing (a fake Ollama, a scripted machine with a fixed clock), with tasks, notes,
// schedules, a skill and a short chat in a fresh MACSTATS_HOME. Loopback only.
// Run: pnpm --filter @macstats/desktop run docs:screenshots   (after building the page)
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { startFakeOllama } from '@macstats/testing';
import { type Browser, type BrowserContext, chromium, type Page } from 'playwright-core';
import UPNG from 'upng-js';
import { startDashboard } from '../src/server/dashboard.js';
import { CHROMIUM_ARGS, chromiumPath } from '../test/browser.js';
import { createScriptedMetrics } from '../test/scripted-metrics.js';
import { SCREENSHOT_TIME, screenshotModel, seedFiles, seedThroughApi } from './screenshot-seed.js';

const OUTPUT = fileURLToPath(new URL('../../../docs/images/', import.meta.url));
const VIEWS = ['metrics', 'chat', 'schedules', 'tasks', 'notes', 'skills', 'settings'] as const;
const SIZES = [
  { width: 1280, height: 800 },
  { width: 390, height: 844 },
] as const;
const SCHEMES = ['light', 'dark'] as const;

type View = (typeof VIEWS)[number];

/** Colours kept per picture: flat interface colours survive; the files shrink to about 40%. */
const PALETTE_COLOURS = 128;

/** A screenshot re-encoded with a palette (upng-js, pure JavaScript: no native build). */
function paletted(png: Buffer): Buffer {
  const image = UPNG.decode(png.buffer.slice(png.byteOffset, png.byteOffset + png.byteLength) as ArrayBuffer);
  return Buffer.from(UPNG.encode(UPNG.toRGBA8(image), image.width, image.height, PALETTE_COLOURS));
}

/** Waits until a view shows what it loads (a state, never a time). */
async function ready(page: Page, view: View, openTask: string): Promise<void> {
  const waits: Record<View, () => Promise<unknown>> = {
    metrics: () =>
      page.waitForFunction(() =>
        [...document.querySelectorAll<HTMLElement>('figure.chart')].every((chart) => chart.dataset['yTicks']),
      ),
    chat: () => page.locator('.turn[data-status="done"]').last().waitFor(),
    schedules: () => page.locator('li.schedule[data-schedule="release-day"]').waitFor(),
    tasks: async () => {
      const row = page.locator(`li.task[data-task-id="${openTask}"]`);
      await row.waitFor();
      await row.locator('button[data-action="open"]').click();
      await row.locator('#task-steps').waitFor();
    },
    notes: () => page.locator('#note-list li', { hasText: 'Prefer short answers' }).waitFor(),
    skills: () => page.locator('#view-skills', { hasText: 'release-notes' }).waitFor(),
    settings: () => page.locator('#settings-model option').first().waitFor({ state: 'attached' }),
  };
  await waits[view]();
  // Fonts and the last layout pass, then the picture.
  await page.evaluate(() => document.fonts.ready.then(() => undefined));
}

/** Asks the chat two questions (METRICS and RUN_JS answers) in a page, and gives the chat's id. */
async function chat(page: Page, origin: string): Promise<string> {
  await page.goto(`${origin}/#chat`);
  for (const question of [
    'How busy is the CPU?',
    'run this JavaScript: [1, 2, 3].map((n) => n * 7).join("+")',
  ]) {
    const before = await page.locator('.turn').count();
    await page.fill('#chat-input', question);
    await page.click('#chat-send');
    await page.locator('.turn').nth(before).and(page.locator('[data-status="done"]')).waitFor();
  }
  return page.evaluate(() => localStorage.getItem('macstats.conversation') ?? '');
}

async function newContext(
  browser: Browser,
  size: (typeof SIZES)[number],
  colorScheme: (typeof SCHEMES)[number],
  conversation: string | undefined,
): Promise<BrowserContext> {
  const context = await browser.newContext({
    viewport: size,
    deviceScaleFactor: 1,
    colorScheme,
    timezoneId: 'UTC',
    locale: 'en-GB',
  });
  if (conversation)
    await context.addInitScript((id) => localStorage.setItem('macstats.conversation', id), conversation);
  return context;
}

// A fixed home and Ollama's usual port (when free), so Settings shows the same paths each run.
const home = join(tmpdir(), 'macstats-screenshots', '.mac-stats');
rmSync(home, { recursive: true, force: true });
mkdirSync(home, { recursive: true, mode: 0o700 });
const fake = await startFakeOllama({ reply: screenshotModel, port: 11434 }).catch(() =>
  startFakeOllama({ reply: screenshotModel }),
);
const metrics = createScriptedMetrics(SCREENSHOT_TIME - 5 * 60_000);
await metrics.advance(300);
const openTask = await seedFiles(home);
const dashboard = await startDashboard({
  home,
  ollama: { host: fake.url },
  collector: metrics.collector,
  tasks: false,
});
const browser = await chromium.launch({
  executablePath: chromiumPath(),
  headless: true,
  args: CHROMIUM_ARGS,
});
mkdirSync(OUTPUT, { recursive: true });
let total = 0;
try {
  await seedThroughApi(dashboard.port, dashboard.token);
  let conversation: string | undefined;
  for (const size of SIZES)
    for (const scheme of SCHEMES) {
      const context = await newContext(browser, size, scheme, conversation);
      const page = await context.newPage();
      await page.goto(dashboard.url);
      conversation ??= await chat(page, dashboard.origin);
      for (const view of VIEWS) {
        await page.goto(`${dashboard.origin}/#${view}`);
        await page.reload();
        await ready(page, view, openTask);
        const path = join(OUTPUT, `${view}-${size.width}-${scheme}.png`);
        const png = paletted(await page.screenshot({ animations: 'disabled', caret: 'hide' }));
        writeFileSync(path, png);
        total += png.length;
        console.log(`${path}: ${(png.length / 1024).toFixed(0)} KB`);
      }
      await context.close();
    }
  console.log(
    `${VIEWS.length * SIZES.length * SCHEMES.length} images, ${(total / 1024).toFixed(0)} KB in all`,
  );
} finally {
  await browser.close();
  await dashboard.close();
  await fake.close();
  rmSync(home, { recursive: true, force: true });
}
