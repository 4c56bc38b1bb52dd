import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/** A request the fake API received. */
export interface BraveRequest {
  path: string;
  query: string | null;
  count: string | null;
  token: string | undefined;
  userAgent: string | undefined;
}

/** What the fake answers one request with; the default is a page of results for the query. */
export type BraveReply = (request: BraveRequest, response: ServerResponse) => void;

/** A fake Brave Search API on 127.0.0.1: `GET /res/v1/web/search` in the real response shape. */
export interface FakeBrave {
  baseUrl: string;
  requests: BraveRequest[];
  /** Replies used in order, one per request; when they run out, results are served. */
  replies: BraveReply[];
  close(): Promise<void>;
}

/** A result page shaped like the real API's (fields beyond the ones the tool reads included). */
export function resultsPage(
  query: string,
  results: Array<{ title: string; url: string; description: string; age?: string }>,
) {
  return {
    type: 'search',
    query: {
      original: query,
      show_strict_warning: false,
      is_navigational: false,
      spellcheck_off: true,
      country: 'us',
    },
    mixed: {
      type: 'mixed',
      main: results.map((_, index) => ({ type: 'web', index, all: false })),
      top: [],
      side: [],
    },
    web: {
      type: 'search',
      family_friendly: true,
      results: results.map((result) => ({
        type: 'search_result',
        subtype: 'generic',
        is_source_local: false,
        is_source_both: false,
        family_friendly: true,
        language: 'en',
        profile: {
          name: new URL(result.url).hostname,
          url: result.url,
          long_name: new URL(result.url).hostname,
        },
        meta_url: {
          scheme: 'https',
          netloc: new URL(result.url).hostname,
          path: new URL(result.url).pathname,
        },
        ...result,
      })),
    },
  };
}

/** Sample results for any query: three hits with Brave's `<strong>` highlighting and entities. */
export function sampleResults(query: string) {
  return resultsPage(query, [
    {
      title: 'Node.js &mdash; Run JavaScript Everywhere',
      url: 'https://nodejs.org/en',
      description:
        '<strong>Node.js</strong> is a free, open-source, cross-platform JavaScript runtime &amp; more.',
    },
    {
      title: 'Node.js 20 &quot;Iron&quot; released',
      url: 'https://nodejs.org/en/blog/release/v20.0.0',
      description:
        'The release of <strong>Node.js 20</strong> brings&nbsp;a permission model &#x2014; and more.',
      age: 'April 18, 2023',
    },
    { title: 'Releases', url: 'https://github.com/nodejs/node/releases', description: '' },
  ]);
}

/** Starts the fake on a free loopback port. */
export async function startFakeBrave(): Promise<FakeBrave> {
  const requests: BraveRequest[] = [];
  const replies: BraveReply[] = [];
  const server = createServer((incoming: IncomingMessage, response: ServerResponse) => {
    const url = new URL(incoming.url ?? '/', 'http://fake');
    const request: BraveRequest = {
      path: url.pathname,
      query: url.searchParams.get('q'),
      count: url.searchParams.get('count'),
      token: incoming.headers['x-subscription-token'] as string | undefined,
      userAgent: incoming.headers['user-agent'],
    };
    requests.push(request);
    const reply = replies.shift();
    if (reply) return reply(request, response);
    if (request.path !== '/res/v1/web/search') return response.writeHead(404).end();
    response
      .writeHead(200, {
        'content-type': 'application/json',
        'x-ratelimit-remaining': '0, 1999',
        'x-ratelimit-reset': '1, 86400',
      })
      .end(JSON.stringify(sampleResults(request.query ?? '')));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    baseUrl: `http://127.0.0.1:${port}`,
    requests,
    replies,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
