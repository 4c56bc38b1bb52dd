import { once } from 'node:events';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createFetchUrlTool } from '../src/index.js';

// Two sites on one loopback port, told apart by their Host: `named.test` redirects wherever
// `/go?to=` says; `other.test` records what reaches it.
const reached: string[] = [];
const server = createServer((request, response) => {
  const host = (request.headers.host ?? '').replace(/:\d+$/, '');
  const to = /\/go\?to=(.+)$/.exec(request.url ?? '')?.[1];
  if (host === 'named.test' && to) {
    response.writeHead(302, { location: decodeURIComponent(to) }).end();
    return;
  }
  reached.push(`${host}${request.url}`);
  response.writeHead(200, { 'content-type': 'text/plain; charset=utf-8' }).end(`page of ${host}`);
});
let port = 0;
const tool = createFetchUrlTool({
  allowHosts: ['127.0.0.1'],
  lookup: async () => [{ address: '127.0.0.1', family: 4 }],
});

beforeAll(async () => {
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  port = (server.address() as AddressInfo).port;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

describe('FETCH_URL and containment across redirects', () => {
  it('asks containment about each hop and stops at one it refuses, before requesting it', async () => {
    const asked: string[] = [];
    const url = `http://named.test:${port}/go?to=http://other.test:${port}/c?d=secret`;
    const result = await tool.run(url, {
      signal: AbortSignal.timeout(10_000),
      checkRedirect: (hop) => {
        asked.push(hop);
        return 'the redirect was not followed.';
      },
    });
    expect(asked).toEqual([`http://other.test:${port}/c?d=secret`]);
    expect(result).toMatchObject({ isError: true });
    expect(reached.filter((entry) => entry.startsWith('other.test'))).toEqual([]);
  });

  it('follows a hop containment allows', async () => {
    const url = `http://named.test:${port}/go?to=http://other.test:${port}/ok`;
    const result = await tool.run(url, {
      signal: AbortSignal.timeout(10_000),
      checkRedirect: () => undefined,
    });
    expect(typeof result === 'string' ? result : result.text).toContain('page of other.test');
  });
});
