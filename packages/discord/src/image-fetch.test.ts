import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { fetchImage } from './image-fetch.js';

let server: Server;
let origin: string;
const hits: string[] = [];

beforeEach(async () => {
  hits.length = 0;
  server = createServer((request, response) => {
    hits.push(request.url ?? '');
    if (request.url === '/redirect')
      response.writeHead(302, { location: 'http://169.254.169.254/latest' }).end();
    else if (request.url === '/text')
      response.writeHead(200, { 'content-type': 'text/html' }).end('<p>hi</p>');
    else if (request.url === '/chunked') {
      // No content-length: the limit must hold while reading.
      response.writeHead(200, { 'content-type': 'image/png' });
      response.write(Buffer.alloc(600));
      response.end(Buffer.alloc(600));
    } else
      response.writeHead(200, { 'content-type': 'image/png; charset=binary' }).end(Buffer.from([1, 2, 3]));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterEach(() => new Promise<void>((resolve) => server.close(() => resolve())));

const options = () => ({ allowedOrigins: [origin], maxBytes: 1000 });

describe('fetchImage', () => {
  it('downloads an image from an allowed origin as base64', async () => {
    expect(await fetchImage(`${origin}/a.png`, options())).toBe(Buffer.from([1, 2, 3]).toString('base64'));
  });

  it('refuses another origin, a look-alike host and credentials before any request', async () => {
    const port = new URL(origin).port;
    for (const url of [
      `http://localhost:${port}/a.png`,
      `http://127.0.0.1.nip.io:${port}/a.png`,
      `http://user:pw@127.0.0.1:${port}/a.png`,
      `https://127.0.0.1:${port}/a.png`,
    ])
      await expect(fetchImage(url, options())).rejects.toMatchObject({ code: 'DISCORD_IMAGE_REFUSED' });
    expect(hits).toEqual([]);
  });

  it('follows no redirect, so none can lead to a private address', async () => {
    await expect(fetchImage(`${origin}/redirect`, options())).rejects.toThrow(/302 redirect refused/);
  });

  it('refuses what is not an image', async () => {
    await expect(fetchImage(`${origin}/text`, options())).rejects.toThrow(/"text\/html" is not a PNG/);
  });

  it('stops reading past the size limit even without a content-length', async () => {
    await expect(fetchImage(`${origin}/chunked`, options())).rejects.toThrow(/over the 1000-byte limit/);
  });
});
