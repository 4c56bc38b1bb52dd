import { labelsOf, type ToolResult } from '@macstats/core';
import { type FakeSearxng, startFakeSearxng } from '@macstats/testing';
import { afterEach, describe, expect, it } from 'vitest';
import { createWebSearchTool, type WebSearchToolOptions } from '../src/index.js';

let fake: FakeSearxng | undefined;
afterEach(async () => {
  await fake?.close();
  fake = undefined;
});

async function search(
  query: string,
  server: FakeSearxng,
  options: Partial<WebSearchToolOptions> = {},
): Promise<ToolResult> {
  const tool = createWebSearchTool({ searxngUrl: server.url, ...options });
  const result = await tool.run(query, { signal: new AbortController().signal });
  return typeof result === 'string' ? { text: result } : result;
}

describe('WEB_SEARCH on SearXNG', () => {
  it('asks the JSON API and lists results as BRAVE_SEARCH does', async () => {
    fake = await startFakeSearxng();
    const result = await search('node 20', fake, { count: 2 });
    expect(fake.requests[0]?.get('format')).toBe('json');
    expect(fake.requests[0]?.get('q')).toBe('node 20');
    expect(result).toEqual({
      text: [
        'SearXNG results for "node 20":',
        '',
        '1. Result 1 for node 20',
        '   https://example.com/node%2020/1',
        '   Snippet 1 about node 20 & more.',
        '',
        '2. Result 2 for node 20',
        '   https://example.com/node%2020/2',
        '   Snippet 2 about node 20 & more.',
      ].join('\n'),
    });
  });

  it('answers a repeated query from the cache', async () => {
    fake = await startFakeSearxng();
    const tool = createWebSearchTool({ searxngUrl: fake.url });
    const context = { signal: new AbortController().signal };
    const first = await tool.run('cached query', context);
    const second = await tool.run('Cached  Query', context);
    expect(second).toEqual(first);
    expect(fake.requests).toHaveLength(1);
  });

  it('waits once after a 429 with Retry-After and retries', async () => {
    fake = await startFakeSearxng({ replies: [{ status: 429, headers: { 'retry-after': '2' } }] });
    const waits: number[] = [];
    const result = await search('busy', fake, { sleep: async (ms) => void waits.push(ms) });
    expect(waits).toEqual([2000]);
    expect(result.text).toMatch(/^SearXNG results for "busy":/);
  });

  it('says in one sentence when the rate limit outlasts the wait it allows', async () => {
    fake = await startFakeSearxng({ replies: [{ status: 429, headers: { 'retry-after': '600' } }] });
    expect(await search('busy', fake)).toEqual({
      isError: true,
      text: 'SearXNG is rate-limiting these searches (HTTP 429); try again in 10 min.',
    });
  });

  it('says how to turn the JSON format on when SearXNG refuses it', async () => {
    fake = await startFakeSearxng({ jsonDisabled: true });
    expect(await search('q', fake)).toEqual({
      isError: true,
      text: `SearXNG at ${fake.url} refused the JSON format (HTTP 403); add json to search.formats in its settings.yml.`,
    });
  });

  it('names engines that did not answer when there are no results', async () => {
    fake = await startFakeSearxng({
      replies: [{ results: [], unresponsiveEngines: [['google', 'timeout']] }],
    });
    expect((await search('rare', fake)).text).toBe(
      'SearXNG found no web results for "rare". Engines that did not answer: google (timeout).',
    );
  });

  it('says in one sentence when SearXNG cannot be reached', async () => {
    fake = await startFakeSearxng();
    const url = fake.url;
    await fake.close();
    fake = undefined;
    const tool = createWebSearchTool({ searxngUrl: url });
    expect(await tool.run('q', { signal: new AbortController().signal })).toEqual({
      isError: true,
      text: `could not reach SearXNG at ${url}: ECONNREFUSED`,
    });
  });

  it('labels results as outside content and the query as sent to the configured instance', () => {
    const tool = createWebSearchTool({ searxngUrl: 'http://127.0.0.1:8888/' });
    expect(labelsOf(tool, { argument: 'q' })).toEqual({
      outside: true,
      sendsTo: 'http://127.0.0.1:8888/search',
      configured: true,
    });
  });
});

describe('BRAVE_SEARCH labels', () => {
  it('labels results as outside content and the query as sent to the configured API', async () => {
    const { createBraveSearchTool } = await import('../src/index.js');
    const tool = createBraveSearchTool({ apiKey: 'k', baseUrl: 'http://127.0.0.1:9/' });
    expect(labelsOf(tool, { argument: 'q' })).toEqual({
      outside: true,
      sendsTo: 'http://127.0.0.1:9/res/v1/web/search',
      configured: true,
    });
  });
});
