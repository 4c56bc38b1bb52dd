import type { ToolResult } from '@macstats/core';
import type { Page } from 'playwright-core';
import type { ConversationPage } from './browser-session.js';
import type { BrowserAction } from './parse-command.js';
import { type AriaNode, renderSnapshot } from './render-snapshot.js';

/** Limits one action runs within. */
export interface ActionSettings {
  actionTimeoutMs: number;
  settleTimeoutMs: number;
  snapshotTokens: number;
  viewport: { width: number; height: number };
}

/** A tool result that may carry a screenshot (base64 JPEG) for a model that can see images. */
export type BrowserResult = ToolResult & { images?: string[] };

/**
 * Does one action on the conversation's current tab and answers with the page as text
 * afterwards (or the tab list, or a screenshot). A request the address policy refused while the
 * action ran is named in the answer; a refused main page makes the answer an error.
 */
export async function runAction(
  entry: ConversationPage,
  action: BrowserAction,
  settings: ActionSettings,
  checkRedirect?: (url: string) => string | undefined,
): Promise<BrowserResult> {
  const refusedBefore = entry.refusals.length;
  const notesBefore = entry.notes.length;
  const page = entry.page;
  const timeout = settings.actionTimeoutMs;
  try {
    switch (action.action) {
      case 'open': {
        const target = checkScheme(action.url);
        if (typeof target === 'string') return { isError: true, text: target };
        // Each hop of this navigation passes containment's check, in the guard proxy.
        entry.navigationCheck = checkRedirect;
        try {
          await page.goto(target.href, { waitUntil: 'load', timeout });
        } finally {
          entry.navigationCheck = undefined;
        }
        break;
      }
      case 'click':
        await page.getByRef(action.ref).click({ timeout });
        break;
      case 'type':
        await page.getByRef(action.ref).fill(action.text, { timeout });
        break;
      case 'select':
        await page.getByRef(action.ref).selectOption({ label: action.option }, { timeout });
        break;
      case 'press':
        await page.keyboard.press(action.key);
        break;
      case 'scroll':
        await page.mouse.wheel(0, (action.direction === 'up' ? -1 : 1) * settings.viewport.height * 0.8);
        break;
      case 'back':
        await page.goBack({ waitUntil: 'load', timeout });
        break;
      case 'wait':
        await page.getByText(action.text).first().waitFor({ state: 'visible', timeout });
        break;
      case 'tabs':
        return listTabs(entry, action.index);
      case 'screenshot':
        return await screenshot(page, settings);
      case 'read':
        break;
    }
    await settle(page, settings.settleTimeoutMs);
  } catch (error) {
    const refused = entry.refusals.slice(refusedBefore);
    if (refused[0]) return { isError: true, text: `${describe(action)} was refused: ${refused[0].reason}` };
    return { isError: true, text: `${describe(action)} failed: ${firstLine(error)}` };
  }
  const refused = entry.refusals.slice(refusedBefore);
  const mainRefusal = refused.find((entryRefused) => sameUrl(entryRefused.target, page.url()));
  if (mainRefusal) {
    return { isError: true, text: `${describe(action)} was refused: ${mainRefusal.reason}` };
  }
  const text = await pageText(page, settings);
  return { text: text + notes(refused, entry.notes.slice(notesBefore)) };
}

/** The page as the model reads it: a title line, then the snapshot cut to the budget. */
export async function pageText(page: Page, settings: ActionSettings): Promise<string> {
  const nodes = (await page.ariaSnapshotJSON({
    mode: 'ai',
    boxes: true,
    timeout: settings.actionTimeoutMs,
  })) as AriaNode[] | AriaNode;
  const title = await page.title().catch(() => '');
  const body = renderSnapshot(Array.isArray(nodes) ? nodes : [nodes], {
    budgetTokens: settings.snapshotTokens,
    viewport: settings.viewport,
  });
  return `Page "${title}" at ${page.url()}\n${body || '(the page shows no text)'}`;
}

/** Waits for the page to settle: the network quiet, then the DOM quiet, each capped. */
async function settle(page: Page, capMs: number): Promise<void> {
  await page.waitForLoadState('load', { timeout: capMs }).catch(() => {});
  await page.waitForLoadState('networkidle', { timeout: capMs }).catch(() => {});
  await page.evaluate(domQuiet(capMs)).catch(() => {});
}

/**
 * A script that resolves once the page's DOM has not changed for 150 ms, or after `capMs`:
 * content a page's scripts add right after load is in the snapshot. A string, so this package
 * compiles without DOM types.
 */
function domQuiet(capMs: number): string {
  return `new Promise((resolve) => {
    let quiet;
    const finish = () => { observer.disconnect(); clearTimeout(quiet); clearTimeout(stop); resolve(); };
    const observer = new MutationObserver(() => { clearTimeout(quiet); quiet = setTimeout(finish, 150); });
    const stop = setTimeout(finish, ${Math.max(0, Math.round(capMs))});
    quiet = setTimeout(finish, 150);
    observer.observe(document, { subtree: true, childList: true, characterData: true, attributes: true });
  })`;
}

async function screenshot(page: Page, settings: ActionSettings): Promise<BrowserResult> {
  const image = await page.screenshot({ type: 'jpeg', quality: 60, timeout: settings.actionTimeoutMs });
  const title = await page.title().catch(() => '');
  return {
    text: `Screenshot of "${title}" at ${page.url()} (${settings.viewport.width}×${settings.viewport.height}).`,
    images: [image.toString('base64')],
  };
}

function listTabs(entry: ConversationPage, index: number | undefined): BrowserResult {
  const pages = entry.context.pages();
  if (index !== undefined) {
    const chosen = pages[index - 1];
    if (!chosen) return { isError: true, text: `There is no tab ${index}; there are ${pages.length}.` };
    entry.page = chosen;
  }
  const lines = pages.map(
    (page, position) => `${position + 1}. ${page.url()}${page === entry.page ? ' (current)' : ''}`,
  );
  return { text: `Tabs:\n${lines.join('\n')}` };
}

function checkScheme(url: string): URL | string {
  let parsed: URL;
  try {
    parsed = new URL(/^[a-z][a-z0-9+.-]*:/i.test(url) ? url : `https://${url}`);
  } catch {
    return `"${url}" is not a URL.`;
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') {
    return `refused: the browser opens only http and https pages, not ${parsed.protocol.replace(/:$/, '')}: (${url.slice(0, 100)}).`;
  }
  return parsed;
}

function notes(
  refused: ReadonlyArray<{ target: string; reason: string }>,
  others: readonly string[],
): string {
  const lines = [
    ...refused.slice(0, 3).map(({ target, reason }) => `refused ${target.slice(0, 120)}: ${reason}`),
    ...(refused.length > 3 ? [`and ${refused.length - 3} more requests refused`] : []),
    ...others.slice(0, 3),
  ];
  return lines.length > 0 ? `\n\nRefused on this page:\n${lines.map((line) => `- ${line}`).join('\n')}` : '';
}

function sameUrl(a: string, b: string): boolean {
  try {
    return new URL(a).href === new URL(b).href;
  } catch {
    return false;
  }
}

function describe(action: BrowserAction): string {
  switch (action.action) {
    case 'open':
      return `Opening ${action.url}`;
    case 'click':
    case 'type':
    case 'select':
      return `${action.action} on ${action.ref}`;
    default:
      return action.action;
  }
}

/** Playwright's messages run to many lines of call log; the model needs the first. */
function firstLine(error: unknown): string {
  const message = error instanceof Error ? error.message : String(error);
  return (message.split('\n')[0] ?? message).replace(/^\w+\.\w+: /, '').slice(0, 300);
}
