import { createHostPolicy, type HostResolver, systemResolver } from '@macstats/address-policy';
import {
  type CallLabels,
  type CallToParse,
  defineTool,
  type LabelledCall,
  type Logger,
  MacstatsError,
  type ParseResult,
  silentLogger,
  type Tool,
  type ToolContext,
} from '@macstats/core';
import { raceSignal } from '@macstats/core/internal';
import { BrowserSession } from './browser-session.js';
import { BROWSER_DEFAULTS } from './defaults.js';
import { browserError } from './error-codes.js';
import { findChromium } from './find-chromium.js';
import { BROWSER_ACTIONS, type BrowserAction, parseCommand } from './parse-command.js';
import { type BrowserResult, runAction } from './run-action.js';

/** Options of {@link createBrowserTool}. Every default is in {@link BROWSER_DEFAULTS}. */
export interface BrowserToolOptions {
  /**
   * Private or local hosts pages may reach, as FETCH_URL's `allowHosts`: names, `*.` wildcards,
   * addresses or CIDR ranges. Applies to every request a page makes. Default none.
   */
  allowHosts?: readonly string[];
  /** Let pages reach every non-public address. Default `false`. */
  allowPrivateNetwork?: boolean;
  /** The Chromium to launch. Default: `findChromium()` (`chromium`, `chromium-browser`, `google-chrome`). */
  executablePath?: string;
  /** Attach to a running Chrome's DevTools endpoint (`http://127.0.0.1:9222`) instead of launching one. */
  cdpUrl?: string;
  /** Tokens of page text per answer. Default 1500. */
  snapshotTokens?: number;
  /** Longest time one action may take, in ms. Default 20000. */
  actionTimeoutMs?: number;
  /** Longest wait for a page to settle after load or an action, in ms. Default 2000. */
  settleTimeoutMs?: number;
  /** A conversation's page closes after this long unused, the browser with the last page, in ms. Default 5 min. */
  idleTimeoutMs?: number;
  /**
   * Actions a conversation may take in one answer (calls without a pause of a minute between
   * them count as one answer's). Default 25.
   */
  maxActionsPerAnswer?: number;
  /** Tabs one conversation may have open; popups past it are closed. Default 3. */
  maxTabs?: number;
  /** Resolves host names for the address policy. Default: the system resolver. Tests inject one. */
  lookup?: HostResolver;
  /** Where launches, refusals and crashes are logged. Default: silent. */
  logger?: Logger;
}

/** The BROWSER tool, and `close()` to end its browser. */
export interface BrowserTool extends Tool {
  /** Closes every page and the browser (or detaches from a browser given by `cdpUrl`). */
  close(): Promise<void>;
}

/** Pauses longer than this between two calls of a conversation start a new answer's action budget. */
const ANSWER_GAP_MS = 60_000;

/**
 * Creates the BROWSER tool: a real Chromium (headless, launched on first use, one per
 * process) that the model drives with short commands. Each conversation gets its own fresh
 * profile and page; every request a page makes passes FETCH_URL's address policy.
 *
 * @example
 * ```ts
 * const browser = createBrowserTool({ allowHosts: ['intranet.example'] });
 * await browser.run('open https://example.com/', { signal, conversationId: 'c1' });
 * // 'Page "Example Domain" at https://example.com/\n# Example Domain\n…\n[e6] link "Learn more"'
 * await browser.run('click e6', { signal, conversationId: 'c1' });
 * await browser.close();
 * ```
 */
export function createBrowserTool(options: BrowserToolOptions = {}): BrowserTool {
  const settings = {
    snapshotTokens: options.snapshotTokens ?? BROWSER_DEFAULTS.snapshotTokens,
    actionTimeoutMs: options.actionTimeoutMs ?? BROWSER_DEFAULTS.actionTimeoutMs,
    settleTimeoutMs: options.settleTimeoutMs ?? BROWSER_DEFAULTS.settleTimeoutMs,
    viewport: { ...BROWSER_DEFAULTS.viewport },
  };
  const maxActions = options.maxActionsPerAnswer ?? BROWSER_DEFAULTS.maxActionsPerAnswer;
  const policy = createHostPolicy({
    allowHosts: options.allowHosts,
    allowPrivateNetwork: options.allowPrivateNetwork ?? BROWSER_DEFAULTS.allowPrivateNetwork,
  });
  // The hosts the user listed are destinations they configured; allowPrivateNetwork names none.
  const listed = createHostPolicy({ allowHosts: options.allowHosts });
  const logger = options.logger ?? silentLogger;
  const session = new BrowserSession({
    executablePath: () => {
      if (options.executablePath) return options.executablePath;
      const found = findChromium();
      if ('error' in found) throw browserError('BROWSER_NOT_FOUND', found.error);
      return found.path;
    },
    cdpUrl: options.cdpUrl,
    policy,
    resolver: options.lookup ?? systemResolver,
    logger,
    idleTimeoutMs: options.idleTimeoutMs ?? BROWSER_DEFAULTS.idleTimeoutMs,
    actionTimeoutMs: settings.actionTimeoutMs,
    maxTabs: options.maxTabs ?? BROWSER_DEFAULTS.maxTabs,
    viewport: settings.viewport,
  });

  function parse(call: CallToParse): ParseResult<BrowserAction> {
    const action = parseCommand(call.argument, call.arguments);
    return typeof action === 'string' ? { problem: action } : { input: action };
  }

  async function run(action: BrowserAction, context: ToolContext): Promise<BrowserResult> {
    context.signal.throwIfAborted();
    const key = context.conversationId ?? 'default';
    let opened: Awaited<ReturnType<BrowserSession['conversation']>>;
    try {
      opened = await raceSignal(session.conversation(key), context.signal);
    } catch (error) {
      if (context.signal.aborted) throw context.signal.reason ?? error;
      const text = MacstatsError.isInstance(error)
        ? error.message
        : `could not start the browser: ${errorLine(error)}`;
      logger.warn({ error: text }, 'browser: launch failed');
      return { isError: true, text };
    }
    const { entry, relaunched } = opened;
    const now = Date.now();
    if (now - entry.lastUsed > ANSWER_GAP_MS) entry.actions = 0;
    entry.actions += 1;
    if (entry.actions > maxActions) {
      return {
        isError: true,
        text: `The browser's budget of ${maxActions} actions for this answer is spent; answer with what the pages showed.`,
      };
    }
    if (action.action === 'open') context.onStatus?.(`Opening ${action.url}`);
    const attempt = (page: typeof entry) => {
      const step = page.queue.then(() => runAction(page, action, settings, context.checkRedirect));
      page.queue = step.catch(() => {});
      return raceSignal(step, context.signal);
    };
    let result: BrowserResult;
    let restarted = relaunched;
    const failed = (error: unknown): BrowserResult => {
      if (context.signal.aborted) throw context.signal.reason ?? error;
      return { isError: true, text: `the browser failed: ${errorLine(error)}` };
    };
    try {
      result = await attempt(entry);
    } catch (error) {
      result = failed(error);
    }
    // A browser that died under the action (killed, crashed): start it again and, for an
    // action that only reads or navigates, do it once more on the new page.
    if (result.isError && REPEATABLE.has(action.action) && (await session.lostUnder(entry, LOSS_NOTICE_MS))) {
      try {
        const again = await raceSignal(session.conversation(key), context.signal);
        restarted = true;
        result = await attempt(again.entry);
      } catch (error) {
        result = failed(error);
      }
    }
    if (!restarted) return result;
    const sentence = 'The browser had stopped and was started again; pages opened before are gone.';
    return { ...result, text: `${sentence}\n${result.text}` };
  }

  function labels(action: BrowserAction, call: LabelledCall): CallLabels {
    if (action.action === 'open') {
      const host = hostOf(action.url);
      const fragment = fragmentOf(action.url);
      const configured = host !== undefined && listed.isHostAllowed(host);
      return {
        outside: true,
        // A host the user listed may show their own data: private as well as outside.
        ...(configured ? { private: true } : {}),
        sendsTo: action.url,
        configured,
        // The page's scripts read the fragment, which never goes over the wire.
        ...(fragment ? { payload: [fragment], payloadSeenByScripts: true } : {}),
      };
    }
    // Acting on a page sends to its origin, and the page's scripts see what is typed, chosen or
    // pressed and may send it anywhere. A click carries only which element it was.
    const page = session.currentUrl(call.conversationId ?? 'default') ?? 'the page open in the browser';
    const onPage = { outside: true, sendsTo: page, payloadSeenByScripts: true };
    if (action.action === 'click') return { ...onPage, payload: [] };
    if (action.action === 'type') return { ...onPage, payload: [action.text] };
    if (action.action === 'select') return { ...onPage, payload: [action.option] };
    // A key that types nothing (Enter, Tab, an arrow) is a choice among a few; any other key
    // (a character, KeyA, Shift+H) is text it types.
    if (action.action === 'press')
      return { ...onPage, payload: TEXTLESS_KEYS.test(action.key) ? [] : [action.key] };
    return { outside: true };
  }

  const tool = defineTool<BrowserAction>({
    name: 'BROWSER',
    description:
      'A real browser for pages needing JavaScript, clicks or forms; elements show as [ref] role "name".',
    usage: `BROWSER: open <url> | click <ref> | type <ref> <text> | select <ref> <option> | press <key> | scroll down | back | tabs | wait for <text> | screenshot`,
    parameters: BROWSER_PARAMETERS,
    argumentHints: { endsAtSemicolon: true },
    parse,
    labels,
    run,
  });
  return { ...tool, close: () => session.close() };
}

/** Keys that move or submit and type no character, alone or with modifiers. */
const TEXTLESS_KEYS =
  /^(?:(?:Control|Shift|Alt|Meta)\+)*(?:Enter|Tab|Escape|Backspace|Delete|Insert|Home|End|PageUp|PageDown|Arrow(?:Up|Down|Left|Right)|F\d{1,2})$/;

/** Actions done again once on a new browser when the old one died under them: none of them acts on a page. */
const REPEATABLE = new Set(['open', 'read', 'screenshot', 'tabs', 'wait']);
/** How long a failed action waits to learn whether the browser died under it. */
const LOSS_NOTICE_MS = 5_000;

/** The JSON Schema of BROWSER's arguments. */
export const BROWSER_PARAMETERS = {
  type: 'object',
  properties: {
    action: { type: 'string', enum: [...BROWSER_ACTIONS] },
    url: { type: 'string' },
    ref: { type: 'string', description: 'e.g. e12' },
    text: { type: 'string', description: 'to type, the option, or to wait for' },
    key: { type: 'string' },
    direction: { type: 'string', enum: ['down', 'up'] },
  },
  required: ['action'],
  additionalProperties: false,
} as const satisfies Record<string, unknown>;

function fragmentOf(url: string): string {
  const at = url.indexOf('#');
  return at === -1 ? '' : url.slice(at + 1);
}

function hostOf(url: string): string | undefined {
  try {
    return new URL(/^[a-z][a-z0-9+.-]*:/i.test(url) ? url : `https://${url}`).hostname;
  } catch {
    return undefined;
  }
}

/** The first line of an error's message, cut to 300 characters. */
function errorLine(error: unknown): string {
  const message = error instanceof Error ? error.message : String(error);
  return (message.split('\n')[0] ?? message).slice(0, 300);
}
