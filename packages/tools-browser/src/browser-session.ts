import type { HostPolicy, HostResolver } from '@macstats/address-policy';
import type { Logger } from '@macstats/core';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { CHROMIUM_ARGS } from './defaults.js';
import { type GuardProxy, startGuardProxy } from './guard-proxy.js';
import { loadPlaywright } from './playwright-driver.js';

/** What the session needs: where the browser is and the rules its pages live by. */
export interface BrowserSessionOptions {
  executablePath: () => string;
  cdpUrl: string | undefined;
  policy: HostPolicy;
  resolver: HostResolver;
  logger: Logger;
  idleTimeoutMs: number;
  actionTimeoutMs: number;
  maxTabs: number;
  viewport: { width: number; height: number };
}

/** One conversation's browsing: its own profile (a fresh context), tabs, proxy and notes. */
export interface ConversationPage {
  context: BrowserContext;
  /** The tab actions act on. */
  page: Page;
  proxy: GuardProxy;
  /** Requests the address policy refused, as sentences, since the conversation began. */
  refusals: Array<{ target: string; reason: string }>;
  /** Other things refused or dismissed (a download, a popup past the limit, a dialog). */
  notes: string[];
  /** Containment's check of the navigation the running action makes, when it bounds one. */
  navigationCheck: ((url: string) => string | undefined) | undefined;
  /** Actions since the last quiet gap: the current answer's. */
  actions: number;
  lastUsed: number;
  /** Runs the conversation's actions one after another. */
  queue: Promise<unknown>;
}

/**
 * The one browser of a process and a page per conversation: launched on first use, closed after
 * `idleTimeoutMs` without an action, relaunched after a crash (the caller is told once).
 */
export class BrowserSession {
  private browser: Browser | undefined;
  private launching: Promise<Browser> | undefined;
  private readonly conversations = new Map<string, ConversationPage>();
  private readonly opening = new Map<string, Promise<ConversationPage>>();
  private idleTimer: NodeJS.Timeout | undefined;
  private lostBrowser = false;
  private closed = false;

  constructor(private readonly options: BrowserSessionOptions) {}

  /** The URL the conversation's page shows, if it has one. */
  currentUrl(key: string): string | undefined {
    const page = this.conversations.get(key)?.page;
    return page && !page.isClosed() ? page.url() : undefined;
  }

  /**
   * The conversation's page, opening the browser and the page when needed. `relaunched` is
   * true once after the browser went away under an earlier page (a crash, a kill).
   */
  async conversation(key: string): Promise<{ entry: ConversationPage; relaunched: boolean }> {
    if (this.closed) throw new Error('the browser tool is closed');
    const relaunched = this.lostBrowser;
    this.lostBrowser = false;
    let entry = this.conversations.get(key);
    if (!entry || entry.page.isClosed()) {
      let pending = this.opening.get(key);
      if (!pending) {
        pending = this.openConversation(key).finally(() => this.opening.delete(key));
        this.opening.set(key, pending);
      }
      entry = await pending;
    }
    entry.lastUsed = Date.now();
    this.armIdleTimer();
    return { entry, relaunched };
  }

  /**
   * True once the browser under this page is gone. A browser killed from outside is noticed
   * when its pipe closes, which can come a moment after an action already failed on it: this
   * waits for that state, up to `withinMs`, and says false when the browser stays connected.
   */
  lostUnder(entry: ConversationPage, withinMs: number): Promise<boolean> {
    const browser = entry.context.browser();
    if (!browser?.isConnected()) return Promise.resolve(true);
    return new Promise((resolve) => {
      const gone = () => {
        clearTimeout(timer);
        resolve(true);
      };
      const timer = setTimeout(() => {
        browser.off('disconnected', gone);
        resolve(false);
      }, withinMs);
      browser.once('disconnected', gone);
    });
  }

  /** Closes every page, every proxy and the browser (or detaches from a browser given by CDP). */
  async close(): Promise<void> {
    this.closed = true;
    clearTimeout(this.idleTimer);
    await this.closeAll();
  }

  private async openConversation(key: string): Promise<ConversationPage> {
    const browser = await this.ensureBrowser();
    const { options } = this;
    const refusals: ConversationPage['refusals'] = [];
    let entry: ConversationPage | undefined;
    const proxy = await startGuardProxy({
      policy: options.policy,
      resolver: options.resolver,
      logger: options.logger,
      onRefused: (target, reason) => refusals.push({ target, reason }),
      navigationCheck: () => entry?.navigationCheck,
    });
    let context: BrowserContext;
    try {
      context = await browser.newContext({
        proxy: { server: proxy.url },
        acceptDownloads: false,
        serviceWorkers: 'block',
        permissions: [],
        viewport: options.viewport,
      });
    } catch (error) {
      await proxy.close();
      throw error;
    }
    context.setDefaultTimeout(options.actionTimeoutMs);
    const page = await context.newPage();
    entry = {
      context,
      page,
      proxy,
      refusals,
      navigationCheck: undefined,
      notes: [],
      actions: 0,
      lastUsed: Date.now(),
      queue: Promise.resolve(),
    };
    this.watchPage(entry, page);
    context.on('page', (popup) => {
      if (context.pages().length > options.maxTabs) {
        entry.notes.push(`refused a popup to ${popup.url() || 'a new tab'}: at most ${options.maxTabs} tabs`);
        popup.close().catch(() => {});
        return;
      }
      this.watchPage(entry, popup);
    });
    this.conversations.set(key, entry);
    options.logger.debug({ conversation: key }, 'browser: page opened');
    return entry;
  }

  private watchPage(entry: ConversationPage, page: Page): void {
    page.on('download', (download) => {
      entry.notes.push(`refused a download of ${download.url()}: the browser does not save files`);
      download.cancel().catch(() => {});
    });
    page.on('dialog', (dialog) => {
      entry.notes.push(`dismissed a ${dialog.type()} dialog: "${dialog.message().slice(0, 200)}"`);
      dialog.dismiss().catch(() => {});
    });
    page.on('framenavigated', (frame) => {
      if (frame !== page.mainFrame()) return;
      const scheme = frame.url().split(':')[0] ?? '';
      if (scheme === 'http' || scheme === 'https' || frame.url() === 'about:blank') return;
      entry.notes.push(
        `refused a navigation to ${frame.url().slice(0, 100)}: only http and https pages are opened`,
      );
      page.goto('about:blank').catch(() => {});
    });
  }

  private ensureBrowser(): Promise<Browser> {
    if (this.browser?.isConnected()) return Promise.resolve(this.browser);
    if (!this.launching) {
      this.launching = this.launch().finally(() => {
        this.launching = undefined;
      });
    }
    return this.launching;
  }

  private async launch(): Promise<Browser> {
    const { options } = this;
    // playwright-core costs about 70 MB resident once imported: a process that never browses
    // never loads it, and an install without the browser tool has none of it.
    const { chromium } = await loadPlaywright();
    const browser = options.cdpUrl
      ? await chromium.connectOverCDP(options.cdpUrl, { timeout: options.actionTimeoutMs })
      : await chromium.launch({
          executablePath: options.executablePath(),
          headless: true,
          chromiumSandbox: false,
          args: [...CHROMIUM_ARGS],
          timeout: options.actionTimeoutMs,
        });
    browser.on('disconnected', () => {
      if (this.browser !== browser) return;
      this.browser = undefined;
      if (!this.closed && this.conversations.size > 0) {
        this.lostBrowser = true;
        options.logger.warn({}, 'browser: the browser went away; it is started again on the next action');
      }
      const lost = [...this.conversations.values()];
      this.conversations.clear();
      for (const entry of lost) entry.proxy.close().catch(() => {});
    });
    this.browser = browser;
    options.logger.info({ cdp: options.cdpUrl !== undefined }, 'browser: started');
    return browser;
  }

  private armIdleTimer(): void {
    clearTimeout(this.idleTimer);
    this.idleTimer = setTimeout(() => this.closeIdle(), this.options.idleTimeoutMs);
    this.idleTimer.unref();
  }

  private async closeIdle(): Promise<void> {
    const now = Date.now();
    for (const [key, entry] of this.conversations) {
      if (now - entry.lastUsed < this.options.idleTimeoutMs) continue;
      this.conversations.delete(key);
      await entry.context.close().catch(() => {});
      await entry.proxy.close();
    }
    if (this.conversations.size === 0) await this.closeAll();
    else this.armIdleTimer();
  }

  private async closeAll(): Promise<void> {
    const entries = [...this.conversations.values()];
    this.conversations.clear();
    const browser = this.browser;
    this.browser = undefined;
    await Promise.allSettled(entries.map((entry) => entry.context.close()));
    await Promise.allSettled(entries.map((entry) => entry.proxy.close()));
    await browser?.close().catch(() => {});
  }
}
