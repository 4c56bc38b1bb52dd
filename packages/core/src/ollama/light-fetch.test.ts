import { createServer, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Ollama } from 'ollama';
import { afterEach, describe, expect, it } from 'vitest';
import { lightFetch } from './light-fetch.js';

let server: Server | undefined;
afterEach(async () => {
  await new Promise((resolve) => server?.close(resolve) ?? resolve(undefined));
  server = undefined;
});

/** A loopback server answering every request with `handle`; resolves its base URL. */
async function serve(handle: Parameters<typeof createServer>[1]): Promise<string> {
  const listening = createServer(handle);
  server = listening;
  await new Promise<void>((resolve) => listening.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(listening.address() as AddressInfo).port}`;
}

describe('lightFetch behind the ollama client', () => {
  it('gives the client the reply it reads, JSON and headers', async () => {
    const base = await serve((_request, response) => {
      response.writeHead(200, { 'content-type': 'application/json' }).end('{"models":[]}');
    });
    const client = new Ollama({ host: base, fetch: lightFetch as typeof fetch });
    expect(await client.list()).toEqual({ models: [] });
  });

  it('names the HTTP status when the server says nothing more', async () => {
    const base = await serve((_request, response) => {
      response.writeHead(502).end();
    });
    const client = new Ollama({ host: base, fetch: lightFetch as typeof fetch });
    await expect(client.list()).rejects.toThrow('Error 502: Bad Gateway');
  });

  it('reports a body cut after its headers as "terminated", as Node’s fetch does', async () => {
    let open: ServerResponse | undefined;
    const base = await serve((_request, response) => {
      response.writeHead(200, { 'content-type': 'application/json', 'content-length': '100' });
      response.write('{"models":');
      open = response;
    });
    const response = await lightFetch(`${base}/api/tags`);
    // The headers are here: now the server goes away in the middle of the body.
    open?.destroy();
    await expect(response.json()).rejects.toThrow('terminated');
  });
});
