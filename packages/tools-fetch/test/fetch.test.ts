import { randomBytes } from 'node:crypto';
import { brotliCompressSync, deflateSync, gzipSync } from 'node:zlib';
import type { ToolResult } from '@macstats/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createFetchUrlTool, DEFAULT_USER_AGENT, type FetchUrlToolOptions } from '../src/index.js';
import { startServer, type TestServer } from './server.js';

let server: TestServer;
let bombBytes: Buffer | undefined;
/** 20 MB of zeros in about 20 KB of gzip. */
const bomb = () => {
  bombBytes ??= gzipSync(Buffer.alloc(20 * 1024 * 1024));
  return bombBytes;
};
const ARTICLE = `<!doctype html><html><head><title>Test article</title></head><body>
<nav><a href="/">Home</a> <a href="/about">About</a></nav>
<article><h1>Test article</h1>
<p>The first paragraph of the article explains what the page is about, in enough words to count as content for the reader view of the page.</p>
<p>A second paragraph goes on with <a href="/more">a link to more</a> and keeps enough text around it for the extractor to consider the article worth keeping.</p>
</article><footer>Copyright nobody</footer><script>var tracking = 1;</script></body></html>`;

const routes: Record<string, (response: import('node:http').ServerResponse) => void> = {
  '/article': (response) =>
    response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(ARTICLE),
  '/json': (response) =>
    response.writeHead(200, { 'content-type': 'application/json' }).end('{"a":1,"b":[true,null]}'),
  '/text': (response) =>
    response.writeHead(200, { 'content-type': 'text/plain' }).end('line one\n  line two\n'),
  '/redirect/3': (response) => response.writeHead(302, { location: '/redirect/2' }).end(),
  '/redirect/2': (response) => response.writeHead(301, { location: '1' }).end(),
  '/redirect/1': (response) => response.writeHead(303, { location: '/text' }).end(),
  '/loop': (response) => response.writeHead(302, { location: '/loop' }).end(),
  '/big': (response) =>
    response.writeHead(200, { 'content-type': 'text/plain' }).end('word '.repeat(100_000)),
  '/gzip': (response) =>
    response
      .writeHead(200, { 'content-type': 'text/plain', 'content-encoding': 'gzip' })
      .end(gzipSync('gzipped text')),
  '/deflate': (response) =>
    response
      .writeHead(200, { 'content-type': 'text/plain', 'content-encoding': 'deflate' })
      .end(deflateSync('deflated text')),
  '/brotli': (response) =>
    response
      .writeHead(200, { 'content-type': 'text/plain', 'content-encoding': 'br' })
      .end(brotliCompressSync('brotli text')),
  '/bomb': (response) =>
    response.writeHead(200, { 'content-type': 'text/html', 'content-encoding': 'gzip' }).end(bomb()),
  '/gzip-big': (response) =>
    response
      .writeHead(200, { 'content-type': 'text/plain', 'content-encoding': 'gzip' })
      .end(gzipSync(randomBytes(150_000).toString('base64'))),
  '/zstd': (response) =>
    response.writeHead(200, { 'content-type': 'text/plain', 'content-encoding': 'zstd' }).end('xx'),
  '/png': (response) =>
    response
      .writeHead(200, { 'content-type': 'image/png', 'content-length': '2048' })
      .end(Buffer.alloc(2048, 1)),
  '/pdf-untyped': (response) =>
    response.writeHead(200).end(Buffer.concat([Buffer.from('%PDF-1.7\n'), Buffer.alloc(3000)])),
  '/octets': (response) =>
    response.writeHead(200, { 'content-type': 'application/octet-stream' }).end(Buffer.from([0, 1, 2, 3])),
  '/shift-jis': (response) =>
    response
      .writeHead(200, { 'content-type': 'text/plain; charset=Shift_JIS' })
      .end(
        Buffer.from([
          0x93, 0xfa, 0x96, 0x7b, 0x8c, 0xea, 0x82, 0xb1, 0x82, 0xf1, 0x82, 0xc9, 0x82, 0xbf, 0x82, 0xcd,
        ]),
      ),
  '/latin1-meta': (response) =>
    response
      .writeHead(200, { 'content-type': 'text/html' })
      .end(
        Buffer.concat([
          Buffer.from(
            '<html><head><meta http-equiv="Content-Type" content="text/html; charset=ISO-8859-1"><title>Caf',
          ),
          Buffer.from([0xe9]),
          Buffer.from('</title></head><body><p>Un caf'),
          Buffer.from([0xe9]),
          Buffer.from(' cr'),
          Buffer.from([0xe8]),
          Buffer.from("me, s'il vous pla"),
          Buffer.from([0xee]),
          Buffer.from('t.</p></body></html>'),
        ]),
      ),
  '/not-found': (response) =>
    response
      .writeHead(404, { 'content-type': 'text/html' })
      .end(
        '<html><head><title>Missing</title></head><body><p>No page lives at this address.</p></body></html>',
      ),
  '/broken': (response) =>
    response.writeHead(503, { 'content-type': 'text/plain' }).end('maintenance until noon'),
  '/echo-agent': (response) => response.writeHead(200, { 'content-type': 'text/plain' }).end('ok'),
  '/drip': (response) => {
    response.writeHead(200, { 'content-type': 'text/plain' });
    const timer = setInterval(() => response.write('.'), 20);
    response.on('close', () => clearInterval(timer));
  },
  '/hang-up': (response) => response.socket?.destroy(),
  '/empty': (response) => response.writeHead(200, { 'content-type': 'text/html' }).end(),
};

beforeAll(async () => {
  server = await startServer((request, response) => {
    const route = routes[request.url ?? ''];
    if (route) route(response);
    else response.writeHead(404).end();
  });
});

afterAll(() => server.close());

async function fetchUrl(
  path: string,
  options: FetchUrlToolOptions = {},
  signal = new AbortController().signal,
) {
  const tool = createFetchUrlTool({ allowHosts: ['127.0.0.1'], ...options });
  const result = await tool.run(path.startsWith('http') ? path : `${server.origin}${path}`, { signal });
  return (typeof result === 'string' ? { text: result } : result) as ToolResult;
}

describe('FETCH_URL content', () => {
  it('returns an HTML page as its title and article, without navigation, footer or scripts', async () => {
    const { text, isError } = await fetchUrl('/article');
    expect(isError).toBeUndefined();
    expect(text.startsWith('# Test article\n\nThe first paragraph')).toBe(true);
    expect(text).toContain(`[a link to more](${server.origin}/more)`);
    expect(text).not.toMatch(/Home|About|Copyright|tracking/);
  });

  it('pretty-prints JSON', async () => {
    expect((await fetchUrl('/json')).text).toBe('{\n  "a": 1,\n  "b": [\n    true,\n    null\n  ]\n}');
  });

  it('returns plain text as it came', async () => {
    expect((await fetchUrl('/text')).text).toBe('line one\n  line two');
  });

  it('reads a Shift_JIS page declared in the header', async () => {
    expect((await fetchUrl('/shift-jis')).text).toBe('日本語こんにちは');
  });

  it('reads an ISO-8859-1 page declared in its meta tag', async () => {
    expect((await fetchUrl('/latin1-meta')).text).toBe("# Café\n\nUn café crème, s'il vous plaît.");
  });

  it('names the type and size of an image instead of reading it', async () => {
    expect((await fetchUrl('/png')).text).toBe(
      `${server.origin}/png is a PNG image (image/png, 2.0 KB); FETCH_URL shows text, not its contents.`,
    );
  });

  it('recognises an untyped PDF by its first bytes', async () => {
    expect((await fetchUrl('/pdf-untyped')).text).toBe(
      `${server.origin}/pdf-untyped is a PDF document (application/pdf, 2.9 KB); FETCH_URL shows text, not its contents.`,
    );
  });

  it('describes an octet stream as a binary file', async () => {
    expect((await fetchUrl('/octets')).text).toMatch(
      /is a binary file \(application\/octet-stream, 4 bytes\)/,
    );
  });

  it('says so when a page is empty', async () => {
    expect((await fetchUrl('/empty')).text).toBe(`${server.origin}/empty answered 200 with an empty body.`);
  });

  it('cuts long text at maxChars and says how much was left out', async () => {
    const { text } = await fetchUrl('/big', { maxChars: 1000 });
    const [shown, note] = text.split('\n\n');
    expect(shown?.length).toBeLessThanOrEqual(1000);
    expect(note).toBe(
      `[cut: ${(500_000 - 1 - (shown?.length ?? 0)).toLocaleString('en')} more characters not shown]`,
    );
  });
});

describe('FETCH_URL limits', () => {
  it('stops reading past maxBytes and says so', async () => {
    const { text, isError } = await fetchUrl('/big', { maxBytes: 10_000, maxChars: 100_000 });
    expect(isError).toBeUndefined();
    expect(text).toMatch(
      /^(word ){1999}word\n\n\[cut: the page is larger than 9\.8 KB; only that much was read\]$/,
    );
  });

  it('decompresses gzip, deflate and brotli bodies', async () => {
    expect((await fetchUrl('/gzip')).text).toBe('gzipped text');
    expect((await fetchUrl('/deflate')).text).toBe('deflated text');
    expect((await fetchUrl('/brotli')).text).toBe('brotli text');
  });

  it('refuses a gzip bomb instead of inflating it', async () => {
    const { text, isError } = await fetchUrl('/bomb', { maxBytes: 1024 * 1024 });
    expect(isError).toBe(true);
    expect(text).toMatch(
      /^refused: the gzip body inflates past 1\.0 MB from [\d.]+ KB \(over 100:1\), which looks like a compression bomb$/,
    );
  });

  it('cuts an ordinary compressed body at maxBytes instead of calling it a bomb', async () => {
    const { text, isError } = await fetchUrl('/gzip-big', { maxBytes: 10_000, maxChars: 100_000 });
    expect(isError).toBeUndefined();
    expect(text).toMatch(
      /^[A-Za-z0-9+/]{10000}\n\n\[cut: the page is larger than 9\.8 KB; only that much was read\]$/,
    );
  });

  it('says when it cannot decode the content encoding', async () => {
    expect(await fetchUrl('/zstd')).toEqual({
      isError: true,
      text: 'the server sent the body with content-encoding "zstd", which FETCH_URL cannot decode',
    });
  });

  it('cuts a slow server off at the timeout', async () => {
    expect(await fetchUrl('/drip', { timeoutMs: 300 })).toEqual({
      isError: true,
      text: `timed out after 300 ms fetching ${server.origin}/drip`,
    });
  });

  it('rejects when the caller aborts, rather than answering', async () => {
    const controller = new AbortController();
    const pending = fetchUrl('/drip', {}, controller.signal);
    setTimeout(() => controller.abort(new Error('user left')), 50);
    await expect(pending).rejects.toThrow('user left');
  });
});

describe('FETCH_URL requests', () => {
  it('sends a User-Agent naming the product and version', async () => {
    await fetchUrl('/echo-agent');
    const seen = server.requests.findLast((request) => request.url === '/echo-agent');
    expect(seen?.headers['user-agent']).toBe(DEFAULT_USER_AGENT);
    expect(DEFAULT_USER_AGENT).toMatch(/^macstats-agent\/\d+\.\d+\.\d+ \(/);
  });

  it('sends the configured User-Agent', async () => {
    await fetchUrl('/echo-agent', { userAgent: 'custom-agent/2.0' });
    expect(server.requests.findLast((request) => request.url === '/echo-agent')?.headers['user-agent']).toBe(
      'custom-agent/2.0',
    );
  });

  it('follows relative and absolute redirects and says where it landed', async () => {
    expect((await fetchUrl('/redirect/3')).text).toBe(
      `(redirected to ${server.origin}/text)\n\nline one\n  line two`,
    );
  });

  it('stops after maxRedirects redirects', async () => {
    expect(await fetchUrl('/loop')).toEqual({
      isError: true,
      text: `stopped after 5 redirects; ${server.origin}/loop redirects again to /loop`,
    });
  });

  it('honours a lower maxRedirects', async () => {
    expect((await fetchUrl('/redirect/3', { maxRedirects: 2 })).text).toMatch(/^stopped after 2 redirects/);
  });

  it('accepts a URL wrapped in angle brackets with a trailing full stop', async () => {
    const tool = createFetchUrlTool({ allowHosts: ['127.0.0.1'] });
    const result = await tool.run(`<${server.origin}/text>.`, { signal: new AbortController().signal });
    expect(result).toEqual({ text: 'line one\n  line two' });
  });
});

describe('FETCH_URL errors', () => {
  it('reports a 404 with status and an excerpt of the page', async () => {
    expect(await fetchUrl('/not-found')).toEqual({
      isError: true,
      text: `[GET] ${server.origin}/not-found: 404 Not Found: Missing. No page lives at this address.`,
    });
  });

  it('reports a 503 with its plain-text body', async () => {
    expect(await fetchUrl('/broken')).toEqual({
      isError: true,
      text: `[GET] ${server.origin}/broken: 503 Service Unavailable: maintenance until noon`,
    });
  });

  it('reports a refused connection', async () => {
    const closed = await startServer(() => {});
    await closed.close();
    expect(await fetchUrl(`${closed.origin}/`)).toEqual({
      isError: true,
      text: `the connection to 127.0.0.1:${closed.port} was refused; nothing is listening there`,
    });
  });

  it('reports a host that does not resolve', async () => {
    const lookup = async (hostname: string) => {
      throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname}`), { code: 'ENOTFOUND' });
    };
    expect(await fetchUrl('http://no-such-host.invalid/', { lookup })).toEqual({
      isError: true,
      text: 'could not resolve the host no-such-host.invalid (ENOTFOUND); check the address',
    });
  });

  it('reports a host whose resolver answers with no address', async () => {
    expect((await fetchUrl('http://empty.test/', { lookup: async () => [] })).text).toBe(
      'could not resolve the host empty.test (ENOTFOUND); check the address',
    );
  });

  it('reports a server that closes the connection without answering', async () => {
    expect(await fetchUrl('/hang-up')).toEqual({
      isError: true,
      text: `the server at 127.0.0.1:${server.port} closed the connection before answering (UND_ERR_SOCKET)`,
    });
  });

  it('asks for a URL when given none', async () => {
    const result = await createFetchUrlTool().run('   ', { signal: new AbortController().signal });
    expect(result).toEqual({
      isError: true,
      text: 'FETCH_URL needs a URL, as in FETCH_URL: https://example.com/page',
    });
  });
});
