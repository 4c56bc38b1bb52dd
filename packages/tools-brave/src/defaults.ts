/** This package's version, sent in the User-Agent (a test keeps it equal to package.json). */
export const PACKAGE_VERSION = '0.1.0';

/** Every default of `createBraveSearchTool`, in one place. */
export const BRAVE_SEARCH_DEFAULTS = {
  /** Brave's API origin; the tool calls `{baseUrl}/res/v1/web/search`. */
  baseUrl: 'https://api.search.brave.com',
  /** Results shown per search (the API allows 1 to 20). */
  count: 5,
  /** One deadline per search, the rate-limit wait included: 15 s. */
  timeoutMs: 15_000,
  /** How long an identical query is answered from memory: 10 minutes. */
  cacheTtlMs: 10 * 60_000,
  /** Queries kept in memory. 0 turns the cache off. */
  cacheSize: 50,
  /** Longest rate-limit reset the tool waits for before its one retry: 5 s. */
  maxRetryWaitMs: 5_000,
  /** What the API accepts in `q`. */
  maxQueryChars: 400,
  maxQueryWords: 50,
  userAgent: `macstats-agent/${PACKAGE_VERSION} (+@macstats/tools-brave; Node.js)`,
} as const;

/** Most results the API returns for one request. */
export const MAX_COUNT = 20;
