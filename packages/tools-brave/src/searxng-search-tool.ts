import { setTimeout as delay } from 'node:timers/promises';
import type { Logger, Tool, ToolResult } from '@macstats/core';
import { BRAVE_SEARCH_PARAMETERS, type SearchToolOptions } from './brave-search-tool.js';
import { BRAVE_SEARCH_DEFAULTS, MAX_COUNT } from './defaults.js';
import { searchError } from './error-codes.js';
import { cleanText, formatResults } from './format-results.js';
import { createQueryCache } from './query-cache.js';
import { describeWait, readRateLimit } from './rate-limit.js';
import { createSearchRun } from './search-run.js';

/** Options of {@link createWebSearchTool}. Defaults are BRAVE_SEARCH's ({@link BRAVE_SEARCH_DEFAULTS}). */
export interface WebSearchToolOptions extends SearchToolOptions {
  /** The SearXNG instance, e.g. `http://127.0.0.1:8888`; searches go to `{searxngUrl}/search?format=json`. Required. */
  searxngUrl: string;
}

/** The parts of SearXNG's JSON answer the tool reads. */
interface SearxngResponse {
  results?: Array<{ url?: string; title?: string; content?: string; publishedDate?: string | null }>;
  corrections?: string[];
  unresponsive_engines?: Array<[string, string]>;
}

const realSleep = (milliseconds: number, signal: AbortSignal) => delay(milliseconds, undefined, { signal });

/**
 * Creates the WEB_SEARCH tool on a SearXNG instance's JSON API: search without a paid key,
 * with BRAVE_SEARCH's result format, cache and rate-limit handling (a 429 is retried once after
 * its `Retry-After`). Failures resolve `{ isError: true, text }` with one sentence.
 *
 * @example
 * ```ts
 * const search = createWebSearchTool({ searxngUrl: 'http://127.0.0.1:8888' });
 * const result = await search.run('node 20 release date', { signal: AbortSignal.timeout(20_000) });
 * ```
 */
export function createWebSearchTool(options: WebSearchToolOptions): Tool {
  const given = options.searxngUrl?.trim() ?? '';
  if (!/^https?:\/\//i.test(given)) {
    throw searchError(
      'SEARXNG_BAD_URL',
      `createWebSearchTool needs searxngUrl as an http(s) URL, not "${given}"`,
    );
  }
  const baseUrl = given.replace(/\/+$/, '');
  const endpoint = `${baseUrl}/search`;
  const count = Math.min(MAX_COUNT, Math.max(1, Math.round(options.count ?? BRAVE_SEARCH_DEFAULTS.count)));
  const maxRetryWaitMs = options.maxRetryWaitMs ?? BRAVE_SEARCH_DEFAULTS.maxRetryWaitMs;
  const sleep = options.sleep ?? realSleep;
  const headers = {
    accept: 'application/json',
    'user-agent': options.userAgent ?? BRAVE_SEARCH_DEFAULTS.userAgent,
  };
  const call = (query: string, signal: AbortSignal) => {
    const url = new URL(endpoint);
    url.searchParams.set('q', query);
    url.searchParams.set('format', 'json');
    return fetch(url, { headers, signal });
  };

  async function search(query: string, signal: AbortSignal, logger: Logger): Promise<ToolResult> {
    let response = await call(query, signal);
    if (response.status === 429) {
      const waitMs = readRateLimit(response.headers).waitMs ?? 1000;
      await response.body?.cancel();
      if (waitMs > maxRetryWaitMs) {
        return {
          isError: true,
          text: `SearXNG is rate-limiting these searches (HTTP 429); try again in ${describeWait(waitMs)}.`,
        };
      }
      logger.info({ waitMs }, 'web-search: rate-limited, waiting once');
      await sleep(waitMs, signal);
      response = await call(query, signal);
      if (response.status === 429) {
        await response.body?.cancel();
        return {
          isError: true,
          text: `SearXNG is still rate-limiting these searches after waiting ${describeWait(waitMs)} (HTTP 429); try again later.`,
        };
      }
    }
    if (response.status === 403) {
      await response.body?.cancel();
      return {
        isError: true,
        text: `SearXNG at ${baseUrl} refused the JSON format (HTTP 403); add json to search.formats in its settings.yml.`,
      };
    }
    if (!response.ok) {
      const excerpt = cleanText(await response.text().catch(() => '')).slice(0, 200);
      return {
        isError: true,
        text: `[GET] ${endpoint}: ${response.status} ${response.statusText}${excerpt ? `: ${excerpt}` : ''}`,
      };
    }
    let body: SearxngResponse;
    try {
      body = (await response.json()) as SearxngResponse;
    } catch {
      return { isError: true, text: `SearXNG at ${endpoint} answered with something that is not JSON.` };
    }
    const results = (body.results ?? []).map((result) => ({
      ...(result.title !== undefined ? { title: result.title } : {}),
      ...(result.url !== undefined ? { url: result.url } : {}),
      ...(result.content !== undefined ? { description: result.content } : {}),
      ...(result.publishedDate ? { age: result.publishedDate.slice(0, 10) } : {}),
    }));
    const altered = body.corrections?.[0];
    const text = formatResults(
      query,
      { web: { results }, ...(altered ? { query: { altered } } : {}) },
      count,
      'SearXNG',
    );
    if (results.length === 0 && (body.unresponsive_engines?.length ?? 0) > 0) {
      const engines = (body.unresponsive_engines ?? [])
        .map(([engine, why]) => `${engine} (${why})`)
        .join(', ');
      return { text: `${text} Engines that did not answer: ${engines}.` };
    }
    return { text };
  }

  return {
    name: 'WEB_SEARCH',
    description: 'Search the web; returns titles, URLs and snippets of the top results.',
    usage: 'WEB_SEARCH: <search query>',
    parameters: WEB_SEARCH_PARAMETERS,
    argumentHints: { endsAtSemicolon: true },
    // Results are pages anyone could have written; the query goes to the user's own SearXNG.
    labels: { outside: true, sendsTo: endpoint, configured: true },
    run: createSearchRun({
      toolName: 'WEB_SEARCH',
      provider: 'SearXNG',
      baseUrl,
      count,
      timeoutMs: options.timeoutMs ?? BRAVE_SEARCH_DEFAULTS.timeoutMs,
      cache: createQueryCache(
        options.cacheSize ?? BRAVE_SEARCH_DEFAULTS.cacheSize,
        options.cacheTtlMs ?? BRAVE_SEARCH_DEFAULTS.cacheTtlMs,
        options.now ?? Date.now,
      ),
      logger: options.logger,
      search,
    }),
  };
}

/** The JSON Schema of WEB_SEARCH's arguments: `{ query }`, the same as BRAVE_SEARCH's. */
export const WEB_SEARCH_PARAMETERS = BRAVE_SEARCH_PARAMETERS;
