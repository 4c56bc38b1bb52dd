import { createHostPolicy, type HostResolver, systemResolver } from '@macstats/address-policy';
import {
  type CallToParse,
  defineTool,
  type Logger,
  type ParseResult,
  silentLogger,
  type Tool,
  type ToolContext,
  type ToolResult,
} from '@macstats/core';
import { formatDuration } from '@macstats/core/internal';
import type { Dispatcher } from 'undici';
import { FETCH_URL_DEFAULTS } from './defaults.js';
import { describeFailure } from './describe-failure.js';
import { fetchPage } from './fetch-page.js';
import { pageToText } from './page-to-text.js';
import { parseTarget } from './parse-target.js';
import { createPinnedAgent } from './pinned-agent.js';

/** Options of {@link createFetchUrlTool}. Every default is in {@link FETCH_URL_DEFAULTS}. */
export interface FetchUrlToolOptions {
  /**
   * Allow loopback, private, link-local and every other non-public address. Default `false`:
   * only public unicast addresses are fetched.
   */
  allowPrivateNetwork?: boolean;
  /**
   * Hosts fetched even when they resolve to a non-public address: names (`nas.local`),
   * subdomain wildcards (`*.corp.example`), IP addresses in any spelling, CIDR ranges
   * (`192.168.1.0/24`). An IP or range entry also allows any name resolving into it. Default none.
   */
  allowHosts?: readonly string[];
  /** One deadline for DNS, connect, redirects and the whole body, in ms. Default 15000. */
  timeoutMs?: number;
  /** Characters of text returned; the rest is cut with a note saying how much. Default 20000. */
  maxChars?: number;
  /** Bytes of body read (after decompression) before reading stops. Default 5 MB. */
  maxBytes?: number;
  /** Redirects followed, each checked like the first request. Default 5. */
  maxRedirects?: number;
  /**
   * Time a large page's article extraction may take, in ms, on a worker thread (pages of
   * 256 KB and more are converted there, so the caller's event loop never stalls). Past it the
   * page's rough text is returned with a note. Default 10000.
   */
  convertTimeoutMs?: number;
  /** Inflation ratio past `maxBytes` refused as a compression bomb. Default 100. */
  maxCompressionRatio?: number;
  /** User-Agent header. Default {@link DEFAULT_USER_AGENT} (`macstats-agent/<version> (...)`). */
  userAgent?: string;
  /**
   * Resolves host names; every address it returns is checked and the connection goes to those
   * addresses only. Default: the system resolver (`dns.lookup`). Tests inject one.
   */
  lookup?: HostResolver;
  /** Where requests, redirects and refusals are logged. Default: silent. */
  logger?: Logger;
}

/**
 * Creates the FETCH_URL tool: fetches an http(s) URL and returns its readable text (HTML as
 * the article's text, JSON pretty-printed, text as is, binaries as one line naming type and
 * size). Private and other non-public addresses are refused unless opted in; refusals and
 * failures resolve `{ isError: true, text }` with one sentence saying why.
 *
 * @example
 * ```ts
 * const fetchUrl = createFetchUrlTool({ timeoutMs: 10_000 });
 * const result = await fetchUrl.run('https://example.com/', { signal: AbortSignal.timeout(20_000) });
 * ```
 */
export function createFetchUrlTool(options: FetchUrlToolOptions = {}): Tool {
  const settings = {
    timeoutMs: options.timeoutMs ?? FETCH_URL_DEFAULTS.timeoutMs,
    maxChars: options.maxChars ?? FETCH_URL_DEFAULTS.maxChars,
    maxBytes: options.maxBytes ?? FETCH_URL_DEFAULTS.maxBytes,
    maxRedirects: options.maxRedirects ?? FETCH_URL_DEFAULTS.maxRedirects,
    convertTimeoutMs: options.convertTimeoutMs ?? FETCH_URL_DEFAULTS.convertTimeoutMs,
    maxCompressionRatio: options.maxCompressionRatio ?? FETCH_URL_DEFAULTS.maxCompressionRatio,
    userAgent: options.userAgent ?? FETCH_URL_DEFAULTS.userAgent,
  };
  const policy = createHostPolicy({
    allowHosts: options.allowHosts,
    allowPrivateNetwork: options.allowPrivateNetwork ?? FETCH_URL_DEFAULTS.allowPrivateNetwork,
  });
  // The hosts the user listed are destinations they configured: data may go there whatever the model read.
  const listed = createHostPolicy({ allowHosts: options.allowHosts });
  const resolver = options.lookup ?? systemResolver;
  const baseLogger = options.logger ?? silentLogger;

  async function run(target: URL, context: ToolContext): Promise<ToolResult> {
    const logger = context.logger ?? baseLogger;
    context.signal.throwIfAborted();
    context.onStatus?.(`Fetching ${target.href}`);
    const timeout = AbortSignal.timeout(settings.timeoutMs);
    const signal = AbortSignal.any([context.signal, timeout]);
    let dispatcher: Dispatcher | undefined;
    try {
      dispatcher = await createPinnedAgent({ policy, resolver, timeoutMs: settings.timeoutMs, logger });
      const page = await fetchPage(target, {
        ...settings,
        dispatcher,
        policy,
        signal,
        logger,
        checkRedirect: context.checkRedirect,
        wantsBody: (status, contentType, contentLength) =>
          status >= 400 || contentLength === undefined || !isDeclaredBinary(contentType),
      });
      // The fetch deadline is spent; converting has its own limit, and only the caller aborts it.
      return await pageToText(page, settings, context.signal);
    } catch (error) {
      // The caller's abort is the caller's: it propagates. Everything else is the model's to read.
      if (context.signal.aborted) throw context.signal.reason ?? error;
      const text = describeFailure(error, target, settings.timeoutMs, timeout.aborted);
      logger.info({ url: target.href, error: text }, 'fetch-url: failed');
      return { isError: true, text };
    } finally {
      dispatcher?.destroy().catch(() => {});
    }
  }

  return defineTool<URL>({
    name: 'FETCH_URL',
    description: `Fetch a web page and read its text (articles, JSON, plain text); gives up after ${formatDuration(settings.timeoutMs)}.`,
    usage: 'FETCH_URL: <full URL>',
    parameters: FETCH_URL_PARAMETERS,
    argumentHints: { url: true, endsAtSemicolon: true },
    parse: parseCall,
    // A page is outside content; the request carries what is in its URL to that host. A host the
    // user listed (their NAS, their router) may return their own data: private as well as outside.
    labels: (target) => {
      const configured = listed.isHostAllowed(target.hostname);
      return { outside: true, sendsTo: target.href, configured, ...(configured ? { private: true } : {}) };
    },
    run,
  });
}

/** The JSON Schema of FETCH_URL's arguments: `{ url }`. */
export const FETCH_URL_PARAMETERS = {
  type: 'object',
  properties: {
    url: { type: 'string', description: 'The full http(s) URL to fetch.' },
  },
  required: ['url'],
  additionalProperties: false,
} as const satisfies Record<string, unknown>;

/** The URL a call names: the structured form's `url` when the caller gave one, else the text argument. */
function parseCall(call: CallToParse): ParseResult<URL> {
  const url = call.arguments?.url;
  const target = parseTarget(typeof url === 'string' ? url : call.argument);
  return typeof target === 'string' ? { problem: target } : { input: target };
}

function isDeclaredBinary(contentType: string | undefined): boolean {
  const type = (contentType ?? '').split(';')[0]?.trim().toLowerCase() ?? '';
  return (
    /^(?:image|audio|video|font)\//.test(type) ||
    /^application\/(?:pdf|zip|gzip|x-tar|octet-stream)$/.test(type)
  );
}
