import { once } from 'node:events';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createBrowserTool } from '@macstats/tools-browser';
import { createFetchUrlTool } from '@macstats/tools-fetch';
import { describe, expect, it } from 'vitest';

// A page whose text exists only once its script has run, as many sites' pages do.
const PAGE = `<!doctype html><html><head><meta charset="utf-8"><title>Prices</title></head>
<body><main id="app"></main><script>
document.getElementById('app').innerHTML = '<h1>Lamp</h1><p>The lamp costs 42 euros.</p>';
</script></body></html>`;

const text = (result: string | { text: string }) => (typeof result === 'string' ? result : result.text);

describe('a page that renders with JavaScript', () => {
  it('gives FETCH_URL nothing of its text, and BROWSER all of it', async () => {
    const server = createServer((_request, response) => {
      response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(PAGE);
    });
    server.listen(0, '127.0.0.1');
    await once(server, 'listening');
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
    const browser = createBrowserTool({ allowHosts: ['127.0.0.1'] });
    const context = { signal: new AbortController().signal, conversationId: 'prices' };
    try {
      const fetched = text(await createFetchUrlTool({ allowHosts: ['127.0.0.1'] }).run(url, context));
      expect(fetched).not.toContain('42 euros');
      const browsed = text(await browser.run(`open ${url}`, context));
      expect(browsed).toContain('The lamp costs 42 euros.');
    } finally {
      await browser.close();
      server.close();
    }
  });
});
