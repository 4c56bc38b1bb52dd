import type { ToolResult } from '@macstats/core';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import {
  BRAVE_SEARCH_DEFAULTS,
  type BraveSearchToolOptions,
  createBraveSearchTool,
  createBraveSearchToolIfConfigured,
} from '../src/index.js';
import { type FakeBrave, resultsPage, startFakeBrave } from './fake-brave.js';

let fake: FakeBrave;

beforeAll(async () => {
  fake = await startFakeBrave();
});
afterAll(() => fake.close());
beforeEach(() => {
  fake.requests.length = 0;
  fake.replies.length = 0;
});

const context = (signal = new AbortController().signal) => ({ signal });

function tool(options: Partial<BraveSearchToolOptions> = {}) {
  return createBraveSearchTool({ apiKey: 'test-key', baseUrl: fake.baseUrl, ...options });
}

async function search(query: string, options: Partial<BraveSearchToolOptions> = {}): Promise<ToolResult> {
  const result = await tool(options).run(query, context());
  return typeof result === 'string' ? { text: result } : result;
}

const rateLimited =
  (reset: string, remaining = '0, 1500') =>
  (_request: unknown, response: import('node:http').ServerResponse) =>
    response
      .writeHead(429, {
        'content-type': 'application/json',
        'x-ratelimit-limit': '1, 2000',
        'x-ratelimit-remaining': remaining,
        'x-ratelimit-reset': reset,
      })
      .end('{"type":"ErrorResponse","error":{"code":"RATE_LIMITED","detail":"Request rate limit exceeded"}}');

describe('BRAVE_SEARCH', () => {
  it('lists results as numbered title, URL and snippet, with tags stripped and entities decoded', async () => {
    const result = await search('node 20 release');
    expect(result).toEqual({
      text: [
        'Brave Search results for "node 20 release":',
        '',
        '1. Node.js — Run JavaScript Everywhere',
        '   https://nodejs.org/en',
        '   Node.js is a free, open-source, cross-platform JavaScript runtime & more.',
        '',
        '2. Node.js 20 "Iron" released',
        '   https://nodejs.org/en/blog/release/v20.0.0',
        '   (April 18, 2023) The release of Node.js 20 brings a permission model — and more.',
        '',
        '3. Releases',
        '   https://github.com/nodejs/node/releases',
      ].join('\n'),
    });
  });

  it('calls GET /res/v1/web/search with the query, the count and the subscription token', async () => {
    await search('weather lisbon', { count: 3 });
    expect(fake.requests).toEqual([
      {
        path: '/res/v1/web/search',
        query: 'weather lisbon',
        count: '3',
        token: 'test-key',
        userAgent: BRAVE_SEARCH_DEFAULTS.userAgent,
      },
    ]);
  });

  it('reads the query from the structured form { query }', async () => {
    const search = tool({ count: 3 });
    expect(search.parameters).toMatchObject({ required: ['query'] });
    expect(search.argumentHints).toEqual({ endsAtSemicolon: true });
    await search.run('{"query":"weather porto"}', { ...context(), arguments: { query: 'weather porto' } });
    expect(fake.requests.map((request) => request.query)).toEqual(['weather porto']);
  });

  it('shows no more results than count', async () => {
    const { text } = await search('node', { count: 2 });
    expect(text).toContain('2. Node.js 20');
    expect(text).not.toContain('3. Releases');
  });

  it('keeps a base URL path prefix', async () => {
    await createBraveSearchTool({ apiKey: 'k', baseUrl: `${fake.baseUrl}/proxy/` }).run('x', context());
    expect(fake.requests[0]?.path).toBe('/proxy/res/v1/web/search');
  });

  it('shortens a query to the 50 words the API accepts and says so', async () => {
    const words = Array.from({ length: 60 }, (_, index) => `w${index}`);
    const { text } = await search(words.join(' '));
    expect(fake.requests[0]?.query).toBe(words.slice(0, 50).join(' '));
    expect(text.startsWith('(query shortened to the 50 words and 400 characters the API accepts)\n\n')).toBe(
      true,
    );
  });

  it('shortens a query to 400 characters at a word', async () => {
    await search(`${'abcdefghi '.repeat(45)}end`);
    expect(fake.requests[0]?.query).toBe('abcdefghi '.repeat(40).trim());
  });

  it('stops the query at another tool appended on the same line', async () => {
    await search('"best pizza in naples"; FETCH_URL: https://example.com');
    expect(fake.requests[0]?.query).toBe('best pizza in naples');
  });

  it('asks for a query when given none', async () => {
    expect(await search('  ')).toEqual({
      isError: true,
      text: 'BRAVE_SEARCH needs a query, as in BRAVE_SEARCH: weather in Lisbon tomorrow',
    });
    expect(fake.requests).toHaveLength(0);
  });

  it('says when there are no results', async () => {
    fake.replies.push((_request, response) =>
      response
        .writeHead(200, { 'content-type': 'application/json' })
        .end(JSON.stringify(resultsPage('zzqx', []))),
    );
    expect(await search('zzqx')).toEqual({ text: 'Brave Search found no web results for "zzqx".' });
  });

  it('answers an identical recent query from its cache', async () => {
    const shared = tool();
    const first = await shared.run('same query', context());
    const second = await shared.run('  Same   QUERY ', context());
    expect(second).toEqual(first);
    expect(fake.requests).toHaveLength(1);
  });

  it('asks again once the cached answer is older than cacheTtlMs', async () => {
    let now = 1_000_000;
    const shared = tool({ now: () => now, cacheTtlMs: 60_000 });
    await shared.run('q', context());
    now += 59_000;
    await shared.run('q', context());
    now += 2_000;
    await shared.run('q', context());
    expect(fake.requests).toHaveLength(2);
  });

  it('does not cache failures', async () => {
    fake.replies.push((_request, response) => response.writeHead(500).end('boom'));
    const shared = tool();
    expect(await shared.run('q', context())).toMatchObject({ isError: true });
    expect(await shared.run('q', context())).toEqual({
      text: expect.stringMatching(/^Brave Search results/),
    });
    expect(fake.requests).toHaveLength(2);
  });
});

describe('BRAVE_SEARCH rate limits and errors', () => {
  it('waits for X-RateLimit-Reset once on a 429, then succeeds', async () => {
    fake.replies.push(rateLimited('1, 1419704'));
    const waits: number[] = [];
    const result = await search('q', { sleep: async (milliseconds) => void waits.push(milliseconds) });
    expect(waits).toEqual([1000]);
    expect(fake.requests).toHaveLength(2);
    expect(result.isError).toBeUndefined();
    expect(result.text).toMatch(/^Brave Search results for "q":/);
  });

  it('gives a clear message when the retry is rate-limited too', async () => {
    fake.replies.push(rateLimited('2, 1419704'), rateLimited('1, 1419703'));
    const waits: number[] = [];
    const result = await search('q', { sleep: async (milliseconds) => void waits.push(milliseconds) });
    expect(waits).toEqual([2000]);
    expect(fake.requests).toHaveLength(2);
    expect(result).toEqual({
      isError: true,
      text: 'Brave Search is still rate-limiting this API key after waiting 2 s (HTTP 429); try again in 1 s.',
    });
  });

  it('does not wait for a spent monthly quota', async () => {
    fake.replies.push(rateLimited('1, 1419704', '1, 0'));
    const waits: number[] = [];
    const result = await search('q', { sleep: async (milliseconds) => void waits.push(milliseconds) });
    expect(waits).toEqual([]);
    expect(fake.requests).toHaveLength(1);
    expect(result).toEqual({
      isError: true,
      text: "Brave Search's quota for this API key is used up (HTTP 429); it resets in 17 days.",
    });
  });

  it('does not wait longer than maxRetryWaitMs', async () => {
    fake.replies.push(rateLimited('30, 1419704'));
    const result = await search('q', { sleep: async () => expect.fail('should not wait') });
    expect(result).toEqual({
      isError: true,
      text: 'Brave Search is rate-limiting this API key (HTTP 429); try again in 30 s.',
    });
  });

  it('reports a rejected key on 401', async () => {
    fake.replies.push((_request, response) =>
      response.writeHead(401, { 'content-type': 'application/json' }).end('{}'),
    );
    expect(await search('q')).toEqual({
      isError: true,
      text: 'Brave Search rejected the API key (HTTP 401 Unauthorized); check the key and its subscription.',
    });
  });

  it('reports a rejected key on 403', async () => {
    fake.replies.push((_request, response) => response.writeHead(403).end());
    expect((await search('q')).text).toBe(
      'Brave Search rejected the API key (HTTP 403 Forbidden); check the key and its subscription.',
    );
  });

  it('reports another error status with the API error detail', async () => {
    fake.replies.push((_request, response) =>
      response
        .writeHead(422, { 'content-type': 'application/json' })
        .end(
          '{"type":"ErrorResponse","error":{"code":"VALIDATION","detail":"Unable to validate request parameter(s)"}}',
        ),
    );
    expect(await search('q')).toEqual({
      isError: true,
      text: `[GET] ${fake.baseUrl}/res/v1/web/search: 422 Unprocessable Entity: Unable to validate request parameter(s)`,
    });
  });

  it('reports a body that is not JSON', async () => {
    fake.replies.push((_request, response) =>
      response.writeHead(200, { 'content-type': 'text/html' }).end('<html>'),
    );
    expect((await search('q')).text).toBe(
      `Brave Search at ${fake.baseUrl}/res/v1/web/search answered with something that is not JSON.`,
    );
  });

  it('reports a server that cannot be reached', async () => {
    const gone = await startFakeBrave();
    await gone.close();
    expect(await search('q', { baseUrl: gone.baseUrl })).toEqual({
      isError: true,
      text: `could not reach Brave Search at ${gone.baseUrl}: ECONNREFUSED`,
    });
  });

  it('gives up at the timeout', async () => {
    fake.replies.push(() => {});
    expect(await search('q', { timeoutMs: 200 })).toEqual({
      isError: true,
      text: 'Brave Search did not answer within 200 ms.',
    });
  });

  it('rejects when the caller aborts', async () => {
    fake.replies.push(() => {});
    const controller = new AbortController();
    const pending = tool().run('q', context(controller.signal));
    setTimeout(() => controller.abort(new Error('user left')), 50);
    await expect(pending).rejects.toThrow('user left');
  });
});

describe('offering the tool', () => {
  it('refuses to create the tool without a key', () => {
    expect(() => createBraveSearchTool({ apiKey: ' ' })).toThrow(/needs an apiKey/);
  });

  it('is not offered without a key', () => {
    expect(createBraveSearchToolIfConfigured({ apiKey: undefined })).toBeUndefined();
    expect(createBraveSearchToolIfConfigured({ apiKey: '' })).toBeUndefined();
  });

  it('is offered with a key, under the name BRAVE_SEARCH', () => {
    const offered = createBraveSearchToolIfConfigured({ apiKey: 'k' });
    expect(offered?.name).toBe('BRAVE_SEARCH');
    expect(offered?.usage).toBe('BRAVE_SEARCH: <search query>');
  });
});
