import { createServer } from 'node:http';
import { listen, sendJson } from './http-helpers.js';

/** One result as SearXNG's JSON API writes it (the fields clients read). */
export interface FakeSearxngResult {
  url: string;
  title: string;
  content?: string;
  engine?: string;
  publishedDate?: string | null;
}

/** What the fake answers one search with: results, or an HTTP status (429, 403, 500) with headers. */
export interface FakeSearxngReply {
  results?: FakeSearxngResult[];
  /** HTTP status; default 200. A non-200 reply sends `body` (default SearXNG's own page text). */
  status?: number;
  headers?: Record<string, string>;
  body?: string;
  /** Engines SearXNG reports as not answering. */
  unresponsiveEngines?: Array<[string, string]>;
}

/** Options of {@link startFakeSearxng}. */
export interface FakeSearxngOptions {
  /** Replies served in order; when empty, `reply` or three stock results per query. */
  replies?: FakeSearxngReply[];
  /** Computes the reply of a search after the queue is empty. */
  reply?: (query: string, index: number) => FakeSearxngReply;
  /** Refuse `format=json` with 403 as SearXNG does when `search.formats` lacks json. Default false. */
  jsonDisabled?: boolean;
}

/** A running fake SearXNG. */
export interface FakeSearxng {
  /** Base URL to give as `SEARXNG_URL`, e.g. `http://127.0.0.1:40123`. */
  url: string;
  /** The query string of every `/search` request, in order. */
  requests: URLSearchParams[];
  /** Adds replies to the end of the queue. */
  replies: FakeSearxngReply[];
  close(): Promise<void>;
}

/** Three results naming the query, as a default answer. */
function stockResults(query: string): FakeSearxngResult[] {
  return [1, 2, 3].map((rank) => ({
    url: `https://example.com/${encodeURIComponent(query)}/${rank}`,
    title: `Result ${rank} for ${query}`,
    content: `Snippet <b>${rank}</b> about ${query} &amp; more.`,
    engine: 'duckduckgo',
  }));
}

/**
 * Starts a fake SearXNG on 127.0.0.1 speaking its JSON API: `GET /search?q=…&format=json`
 * answers `{ query, number_of_results, results, answers, corrections, infoboxes, suggestions,
 * unresponsive_engines }`, as SearXNG 2024+ does. Anything else is a 404.
 */
export async function startFakeSearxng(options: FakeSearxngOptions = {}): Promise<FakeSearxng> {
  const requests: URLSearchParams[] = [];
  const replies = [...(options.replies ?? [])];
  const server = createServer((request, response) => {
    const url = new URL(request.url ?? '/', 'http://fake');
    if (url.pathname !== '/search') {
      response.writeHead(404, { 'content-type': 'text/plain' }).end('Not Found');
      return;
    }
    requests.push(url.searchParams);
    const query = url.searchParams.get('q') ?? '';
    if (options.jsonDisabled && url.searchParams.get('format') === 'json') {
      response.writeHead(403, { 'content-type': 'text/html' }).end('<title>403 Forbidden</title>');
      return;
    }
    const reply = replies.shift() ?? options.reply?.(query, requests.length - 1) ?? {};
    const status = reply.status ?? 200;
    if (status !== 200) {
      response
        .writeHead(status, { 'content-type': 'text/plain', ...reply.headers })
        .end(reply.body ?? (status === 429 ? 'Too Many Requests' : 'Internal Server Error'));
      return;
    }
    const results = reply.results ?? stockResults(query);
    response.setHeader('cache-control', 'no-store');
    for (const [name, value] of Object.entries(reply.headers ?? {})) response.setHeader(name, value);
    sendJson(response, 200, {
      query,
      number_of_results: results.length,
      results: results.map((result) => ({ engines: [result.engine ?? 'duckduckgo'], score: 1, ...result })),
      answers: [],
      corrections: [],
      infoboxes: [],
      suggestions: [],
      unresponsive_engines: reply.unresponsiveEngines ?? [],
    });
  });
  const url = await listen(server, '127.0.0.1', 0);
  return {
    url,
    requests,
    replies,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
