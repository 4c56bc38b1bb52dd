import { type Logger, silentLogger, type ToolContext, type ToolResult } from '@macstats/core';
import { formatDuration } from '@macstats/core/internal';
import { prepareQuery, queryKey } from './query.js';
import type { QueryCache } from './query-cache.js';

/** What a search tool is made of besides the one request it makes. */
export interface SearchRunOptions {
  /** The tool's name, for the sentence asking for a query. */
  toolName: string;
  /** The provider's name in sentences: `Brave Search`, `SearXNG`. */
  provider: string;
  /** The provider's address, named when it cannot be reached. */
  baseUrl: string;
  count: number;
  timeoutMs: number;
  cache: QueryCache;
  logger: Logger | undefined;
  /** Makes the search (with its own rate-limit handling) and writes the result. */
  search(query: string, signal: AbortSignal, logger: Logger): Promise<ToolResult>;
}

/**
 * The part every search tool shares: reads the query (object or text), shortens it to what
 * the APIs accept, answers an identical query from the cache, puts one deadline on the search
 * and turns a failure into one sentence. The caller's abort propagates.
 */
export function createSearchRun(options: SearchRunOptions) {
  const { provider, baseUrl, cache, count, timeoutMs } = options;
  return async function run(argument: string, context: ToolContext): Promise<ToolResult> {
    const logger = context.logger ?? options.logger ?? silentLogger;
    const given = context.arguments?.query;
    const prepared = prepareQuery(typeof given === 'string' ? given : argument, options.toolName);
    if (typeof prepared === 'string') return { isError: true, text: prepared };
    const { query, shortened } = prepared;
    const note = shortened ? '(query shortened to the 50 words and 400 characters the API accepts)\n\n' : '';
    const key = queryKey(query, count);
    const cached = cache.get(key);
    if (cached !== undefined) {
      logger.debug({ query, provider }, 'search: answered from cache');
      return { text: note + cached };
    }
    context.signal.throwIfAborted();
    context.onStatus?.(`Searching the web for "${query}"`);
    const timeout = AbortSignal.timeout(timeoutMs);
    const signal = AbortSignal.any([context.signal, timeout]);
    try {
      const result = await options.search(query, signal, logger);
      if (!result.isError) cache.set(key, result.text);
      return result.isError ? result : { text: note + result.text };
    } catch (error) {
      if (context.signal.aborted) throw context.signal.reason ?? error;
      if (timeout.aborted)
        return { isError: true, text: `${provider} did not answer within ${formatDuration(timeoutMs)}.` };
      const text = `could not reach ${provider} at ${baseUrl}: ${reason(error)}`;
      logger.warn({ error: text }, 'search: failed');
      return { isError: true, text };
    }
  };
}

function reason(error: unknown): string {
  let current: unknown = error;
  for (let depth = 0; depth < 4 && current instanceof Error; depth++) {
    const code = (current as { code?: unknown }).code;
    if (typeof code === 'string' && !code.startsWith('UND_ERR')) return code;
    current = (current as { cause?: unknown }).cause;
  }
  return error instanceof Error ? error.message : String(error);
}
