import type { ToolContext } from '@macstats/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { htmlToText } from '../src/html-to-text.js';
import { startServer, type TestServer } from './server.js';

// The worker thread exists only in the build: this file tests the built package (turbo builds
// it before the tests run).
const built = (await import('../dist/index.js' as string)) as typeof import('../src/index.js');

/** An article of about `chars` characters of dense content. */
function largeArticle(chars: number): string {
  const parts = ['<!doctype html><html><head><title>Large</title></head><body><article><h1>Large</h1>'];
  let length = 0;
  for (let index = 0; length < chars; index++) {
    const part = `<div class="c"><p>Paragraph ${index} with <a href="/x${index}">a link</a> and <b>bold</b> words.</p></div>`;
    parts.push(part);
    length += part.length;
  }
  parts.push('</article><script>var tracking = "<p>not text</p>";</script></body></html>');
  return parts.join('');
}

const pages: Record<string, string> = {
  '/large': largeArticle(300_000),
  '/huge': largeArticle(3_000_000),
};
let server: TestServer;
const context = (): ToolContext => ({ signal: new AbortController().signal });

beforeAll(async () => {
  server = await startServer((request, response) => {
    response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(pages[request.url ?? '']);
  });
});
afterAll(() => server.close());

describe('a page of 256 KB or more', () => {
  it('is turned into the same text on the worker thread as on the calling thread', async () => {
    // No time limit worth the name: a loaded machine must not turn this into the rough text.
    const tool = built.createFetchUrlTool({
      allowPrivateNetwork: true,
      maxChars: 10_000_000,
      convertTimeoutMs: 600_000,
    });
    const url = `${server.origin}/large`;
    const result = await tool.run(url, context());
    expect(result).toEqual({ text: htmlToText(pages['/large'] as string, { url }) });
  }, 120_000);

  it('gives its rough text, with a note, when the extraction outlasts the time limit', async () => {
    const tool = built.createFetchUrlTool({ allowPrivateNetwork: true, convertTimeoutMs: 1 });
    const result = await tool.run(`${server.origin}/huge`, context());
    const text = typeof result === 'string' ? result : result.text;
    expect(text.startsWith('# Large\n\nLarge Paragraph 0 with a link and bold words.')).toBe(true);
    expect(text).not.toContain('not text');
    expect(text).toContain(
      '[rough text: the page was too large to find its article within 1 ms; menus and other page parts are included]',
    );
  });
});
