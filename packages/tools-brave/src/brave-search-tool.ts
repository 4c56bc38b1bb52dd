import { setTimeout as delay } from 'node:timers/promises';
import type { Logger, Tool, ToolResult } from '@macstats/core';
import { BRAVE_SEARCH_DEFAULTS, MAX_COUNT } from './defaults.js';
import { searchError } from './error-codes.js';
import { type BraveSearchResponse, cleanText, formatResults } from './format-results.js';
import { createQueryCache } from './query-cache.js';
import { describeWait, readRateLimit } from './rate-limit.js';
import { createSearchRun } from './search-run.js';

/** Options of {@link createBraveSearchTool}. Every default is in {@link BRAVE_SEARCH_DEFAULTS}. */
export interface BraveSearchToolOptions extends SearchToolOptions {
  /** The Brave Search API subscription token, sent as `X-Subscription-Token`. Required. */
  apiKey: string;
  /** API origin; requests go to `{baseUrl}/res/v1/web/search`. Default Brave's own. Tests point it at a fake. */
  baseUrl?: string;
}

/** What every search tool of this package takes (BRAVE_SEARCH, WEB_SEARCH); defaults in {@link BRAVE_SEARCH_DEFAULTS}. */
export interface SearchToolOptions {
  /** Results per search, 1 to 20. Default 5. */
  count?: number;
  /** One deadline per search, the rate-limit wait included, in ms. Default 15000. */
  timeoutMs?: number;
  /** How long an identical query is answered from memory, in ms. Default 10 minutes. */
  cacheTtlMs?: number;
  /** Queries kept in memory; 0 turns the cache off. Default 50. */
  cacheSize?: number;
  /** Longest rate-limit wait (`Retry-After` or the reset header) before the one retry, in ms. Default 5000. */
  maxRetryWaitMs?: number;
  /** User-Agent header. Default `macstats-agent/<version> (...)`. */
  userAgent?: string;
  /** Waits before the retry after a 429. Default a real timer; tests inject one. */
  sleep?: (milliseconds: number, signal: AbortSignal) => Promise<void>;
  /** The clock the cache reads. Default `Date.now`. */
  now?: () => number;
  /** Where searches, cache hits and rate limits are logged. Default: silent. */
  logger?: Logger;
}

const realSleep = (milliseconds: number, signal: AbortSignal) => delay(milliseconds, undefined, { signal });

/**
 * Creates the BRAVE_SEARCH tool: searches the web through the Brave Search API and returns the
 * results as a numbered list of title, URL and snippet. A 429 is retried once after the reset
 * its headers give; a rejected key, a spent quota or a failure resolves `{ isError: true, text }`.
 *
 * Throws `BRAVE_NO_API_KEY` when `apiKey` is empty: an app without a key should not offer the
 * tool at all (see {@link createBraveSearchToolIfConfigured}).
 *
 * @example
 * ```ts
 * const search = createBraveSearchTool({ apiKey: key, count: 5 });
 * const result = await search.run('node 20 release date', { signal: AbortSignal.timeout(20_000) });
 * ```
 */
export function createBraveSearchTool(options: BraveSearchToolOptions): Tool {
  const apiKey = options.apiKey?.trim() ?? '';
  if (apiKey === '') {
    throw searchError(
      'BRAVE_NO_API_KEY',
      'createBraveSearchTool needs an apiKey; without one, do not offer the tool',
    );
  }
  const baseUrl = (options.baseUrl ?? BRAVE_SEARCH_DEFAULTS.baseUrl).replace(/\/+$/, '');
  const endpoint = `${baseUrl}/res/v1/web/search`;
  const count = Math.min(MAX_COUNT, Math.max(1, Math.round(options.count ?? BRAVE_SEARCH_DEFAULTS.count)));
  const timeoutMs = options.timeoutMs ?? BRAVE_SEARCH_DEFAULTS.timeoutMs;
  const maxRetryWaitMs = options.maxRetryWaitMs ?? BRAVE_SEARCH_DEFAULTS.maxRetryWaitMs;
  const sleep = options.sleep ?? realSleep;
  const cache = createQueryCache(
    options.cacheSize ?? BRAVE_SEARCH_DEFAULTS.cacheSize,
    options.cacheTtlMs ?? BRAVE_SEARCH_DEFAULTS.cacheTtlMs,
    options.now ?? Date.now,
  );
  const headers = {
    accept: 'application/json',
    'user-agent': options.userAgent ?? BRAVE_SEARCH_DEFAULTS.userAgent,
    'x-subscription-token': apiKey,
  };

  const call = (query: string, signal: AbortSignal) => {
    const url = new URL(endpoint);
    url.searchParams.set('q', query);
    url.searchParams.set('count', String(count));
    return fetch(url, { headers, signal });
  };

  async function search(query: string, signal: AbortSignal, logger: Logger): Promise<ToolResult> {
    let response = await call(query, signal);
    if (response.status === 429) {
      const wait = readRateLimit(response.headers);
      await response.body?.cancel();
      if (wait.longWindow) {
        const when = wait.waitMs === undefined ? '' : `; it resets in ${describeWait(wait.waitMs)}`;
        return { isError: true, text: `Brave Search's quota for this API key is used up (HTTP 429)${when}.` };
      }
      const waitMs = wait.waitMs ?? 1000;
      if (waitMs > maxRetryWaitMs) {
        return {
          isError: true,
          text: `Brave Search is rate-limiting this API key (HTTP 429); try again in ${describeWait(waitMs)}.`,
        };
      }
      logger.info({ waitMs }, 'brave-search: rate-limited, waiting once');
      await sleep(waitMs, signal);
      response = await call(query, signal);
      if (response.status === 429) {
        const again = readRateLimit(response.headers).waitMs;
        await response.body?.cancel();
        const when = again === undefined ? 'later' : `in ${describeWait(again)}`;
        return {
          isError: true,
          text: `Brave Search is still rate-limiting this API key after waiting ${describeWait(waitMs)} (HTTP 429); try again ${when}.`,
        };
      }
    }
    if (response.status === 401 || response.status === 403) {
      await response.body?.cancel();
      return {
        isError: true,
        text: `Brave Search rejected the API key (HTTP ${response.status} ${response.statusText}); check the key and its subscription.`,
      };
    }
    if (!response.ok) {
      const excerpt = errorExcerpt(await response.text().catch(() => ''));
      return {
        isError: true,
        text: `[GET] ${endpoint}: ${response.status} ${response.statusText}${excerpt ? `: ${excerpt}` : ''}`,
      };
    }
    let body: BraveSearchResponse;
    try {
      body = (await response.json()) as BraveSearchResponse;
    } catch {
      return { isError: true, text: `Brave Search at ${endpoint} answered with something that is not JSON.` };
    }
    return { text: formatResults(query, body, count) };
  }

  const run = createSearchRun({
    toolName: 'BRAVE_SEARCH',
    provider: 'Brave Search',
    baseUrl,
    count,
    timeoutMs,
    cache,
    logger: options.logger,
    search,
  });

  return {
    name: 'BRAVE_SEARCH',
    description: 'Search the web with Brave Search; returns titles, URLs and snippets of the top results.',
    usage: 'BRAVE_SEARCH: <search query>',
    parameters: BRAVE_SEARCH_PARAMETERS,
    argumentHints: { endsAtSemicolon: true },
    // Results are pages anyone could have written; the query goes to the configured API.
    labels: { outside: true, sendsTo: endpoint, configured: true },
    run,
  };
}

/** The JSON Schema of BRAVE_SEARCH's arguments: `{ query }`. */
export const BRAVE_SEARCH_PARAMETERS = {
  type: 'object',
  properties: {
    query: { type: 'string', description: 'What to search the web for.' },
  },
  required: ['query'],
  additionalProperties: false,
} as const satisfies Record<string, unknown>;

/**
 * The tool when there is a key, `undefined` when there is none: apps pass whatever their
 * configuration holds and offer the tool only when this returns one.
 */
export function createBraveSearchToolIfConfigured(
  options: Omit<BraveSearchToolOptions, 'apiKey'> & { apiKey?: string | undefined },
): Tool | undefined {
  const apiKey = options.apiKey?.trim();
  return apiKey ? createBraveSearchTool({ ...options, apiKey }) : undefined;
}

function errorExcerpt(body: string): string {
  try {
    const parsed = JSON.parse(body) as { error?: { detail?: string; code?: string }; message?: string };
    const detail = parsed.error?.detail ?? parsed.message;
    if (detail) return cleanText(detail).slice(0, 200);
  } catch {
    // Not JSON: quote the text itself.
  }
  return cleanText(body).slice(0, 200);
}
