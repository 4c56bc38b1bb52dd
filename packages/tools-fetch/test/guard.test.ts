import type { ToolResult } from '@macstats/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createFetchUrlTool, type HostResolver } from '../src/index.js';
import { startServer, type TestServer } from './server.js';

let server: TestServer;

beforeAll(async () => {
  server = await startServer((request, response) => {
    if (request.url === '/to-private') {
      response.writeHead(302, { location: 'http://10.0.0.5/admin' }).end();
    } else if (request.url === '/to-ipv6-loopback') {
      response.writeHead(301, { location: `http://[::1]:${server.port}/` }).end();
    } else if (request.url === '/to-internal-name') {
      response.writeHead(307, { location: `http://internal.test:${server.port}/` }).end();
    } else {
      response.writeHead(200, { 'content-type': 'text/plain' }).end('secret on loopback');
    }
  });
});

afterAll(() => server.close());

const context = () => ({ signal: new AbortController().signal });

async function run(url: string, options: Parameters<typeof createFetchUrlTool>[0] = {}): Promise<ToolResult> {
  const result = await createFetchUrlTool(options).run(url, context());
  return typeof result === 'string' ? { text: result } : result;
}

/** A resolver that answers from a table and counts its calls. */
function fakeResolver(table: Record<string, string[] | string[][]>): HostResolver & { calls: string[] } {
  const calls: string[] = [];
  const resolver = async (hostname: string) => {
    calls.push(hostname);
    const entry = table[hostname];
    if (!entry) throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname}`), { code: 'ENOTFOUND' });
    const answer = (
      Array.isArray(entry[0])
        ? (entry as string[][])[Math.min(calls.filter((c) => c === hostname).length - 1, entry.length - 1)]
        : entry
    ) as string[];
    return answer.map((address) => ({ address, family: address.includes(':') ? 6 : 4 }));
  };
  return Object.assign(resolver, { calls });
}

describe('the SSRF guard', () => {
  const spellings = [
    '127.0.0.1',
    '2130706433',
    '0x7f000001',
    '0x7F000001',
    '017700000001',
    '0177.0.0.1',
    '0177.0000.0000.0001',
    '127.1',
    '127.0.1',
    '0x7f.1',
    '0x7f.0.0.1',
    '0x7f.0x0.0x0.0x1',
    '127.0.0.1.',
    '127.000.000.001',
    '127.255.255.254',
  ];

  for (const host of spellings) {
    it(`refuses 127.0.0.1 spelled ${host} without connecting`, async () => {
      const before = server.requests.length;
      const result = await run(`http://${host}:${server.port}/`);
      expect(result.isError).toBe(true);
      expect(result.text).toMatch(
        /^blocked: 127\.\d+\.\d+\.\d+ is a loopback address; add the host to allowHosts/,
      );
      expect(server.requests.length).toBe(before);
    });
  }

  const ipv6Forms = [
    ['[::1]', 'a loopback address'],
    ['[0:0:0:0:0:0:0:1]', 'a loopback address'],
    ['[::ffff:127.0.0.1]', 'an IPv6 form of a loopback address'],
    ['[::ffff:7f00:1]', 'an IPv6 form of a loopback address'],
    ['[::127.0.0.1]', 'an IPv6 form of a loopback address'],
    ['[64:ff9b::127.0.0.1]', 'an IPv6 form of a loopback address'],
    ['[2002:7f00:1::]', 'an IPv6 form of a loopback address'],
    ['[::ffff:0:7f00:1]', 'an IPv6 form of a loopback address'],
    ['[::ffff:10.0.0.5]', 'an IPv6 form of a private address'],
    ['[::ffff:a9fe:a9fe]', 'an IPv6 form of a cloud metadata address'],
    ['[fd00:ec2::254]', 'a cloud metadata address'],
    ['[fe80::1]', 'a link-local IPv6 address'],
    ['[fc00::1]', 'a unique-local IPv6 address'],
    ['[::]', 'an unspecified IPv6 address'],
  ];

  for (const [host, why] of ipv6Forms) {
    it(`refuses the IPv6 host ${host} as ${why}`, async () => {
      const result = await run(`http://${host}:${server.port}/`);
      expect(result).toEqual({
        isError: true,
        text: expect.stringMatching(
          new RegExp(`^blocked: \\S+ is ${why}; add the host to allowHosts to fetch it$`),
        ),
      });
    });
  }

  it('refuses the cloud metadata address and says how to allow it', async () => {
    const result = await run('http://169.254.169.254/latest/meta-data/');
    expect(result).toEqual({
      isError: true,
      text: 'blocked: 169.254.169.254 is a cloud metadata address; add the host to allowHosts to fetch it',
    });
  });

  it('refuses a private address in the words of the issue', async () => {
    const result = await run('http://10.0.0.5/');
    expect(result.text).toBe(
      'blocked: 10.0.0.5 is a private address; add the host to allowHosts to fetch it',
    );
  });

  it('refuses a name that resolves to a private address, naming both', async () => {
    const lookup = fakeResolver({ 'intranet.test': ['10.0.0.5'] });
    const result = await run('http://intranet.test/', { lookup });
    expect(result).toEqual({
      isError: true,
      text: 'blocked: 10.0.0.5 (the address of intranet.test) is a private address; add the host to allowHosts to fetch it',
    });
    expect(lookup.calls).toEqual(['intranet.test']);
  });

  it('refuses localhost through the system resolver', async () => {
    const result = await run(`http://localhost:${server.port}/`);
    expect(result.isError).toBe(true);
    expect(result.text).toMatch(
      /^blocked: (127\.0\.0\.1|::1) \(the address of localhost\) is a loopback address/,
    );
  });

  it('refuses a name when any of its addresses is private, even after a public one', async () => {
    const lookup = fakeResolver({ 'mixed.test': ['93.184.216.34', '127.0.0.1'] });
    const result = await run(`http://mixed.test:${server.port}/`, { lookup });
    expect(result.text).toMatch(
      /^blocked: 127\.0\.0\.1 \(the address of mixed\.test\) is a loopback address/,
    );
  });

  it('fetches loopback when allowPrivateNetwork is set', async () => {
    const result = await run(`${server.origin}/`, { allowPrivateNetwork: true });
    expect(result).toEqual({ text: 'secret on loopback' });
  });

  it('fetches an address listed in allowHosts, in another spelling', async () => {
    const result = await run(`http://0x7f000001:${server.port}/`, { allowHosts: ['127.0.0.1'] });
    expect(result.text).toBe('secret on loopback');
  });

  it('fetches a name listed in allowHosts even though it resolves to loopback', async () => {
    const lookup = fakeResolver({ 'nas.test': ['127.0.0.1'] });
    const result = await run(`http://NAS.test.:${server.port}/`, { lookup, allowHosts: ['nas.test'] });
    expect(result.text).toBe('secret on loopback');
  });

  it('fetches a name whose address falls in an allowed CIDR range', async () => {
    const lookup = fakeResolver({ 'box.test': ['127.0.0.1'] });
    const result = await run(`http://box.test:${server.port}/`, { lookup, allowHosts: ['127.0.0.0/8'] });
    expect(result.text).toBe('secret on loopback');
  });

  it('connects to the address it checked, resolving the name only once (no DNS rebinding)', async () => {
    // First answer allowed, every later answer private: a second resolution would be refused.
    const lookup = fakeResolver({ 'rebind.test': [['127.0.0.1'], ['10.0.0.5']] });
    const result = await run(`http://rebind.test:${server.port}/`, { lookup, allowHosts: ['127.0.0.1'] });
    expect(result.text).toBe('secret on loopback');
    expect(lookup.calls).toEqual(['rebind.test']);
  });

  it('refuses a redirect to a private address without following it', async () => {
    const result = await run(`${server.origin}/to-private`, { allowHosts: ['127.0.0.1'] });
    expect(result.text).toBe(
      'blocked: 10.0.0.5 is a private address; add the host to allowHosts to fetch it',
    );
  });

  it('refuses a redirect to IPv6 loopback when only IPv4 loopback is allowed', async () => {
    const result = await run(`${server.origin}/to-ipv6-loopback`, { allowHosts: ['127.0.0.1'] });
    expect(result.text).toMatch(/^blocked: ::1 is a loopback address/);
  });

  it('checks the name a redirect points to when it resolves', async () => {
    const lookup = fakeResolver({ 'internal.test': ['192.168.1.20'] });
    const result = await run(`${server.origin}/to-internal-name`, { lookup, allowHosts: ['127.0.0.1'] });
    expect(result.text).toBe(
      'blocked: 192.168.1.20 (the address of internal.test) is a private address; add the host to allowHosts to fetch it',
    );
  });

  for (const url of [
    'file:///etc/passwd',
    'ftp://example.com/file',
    'gopher://127.0.0.1:6379/_INFO',
    'data:text/plain,hi',
  ]) {
    it(`refuses the non-http URL ${url}`, async () => {
      const result = await run(url, { allowPrivateNetwork: true });
      expect(result.isError).toBe(true);
      expect(result.text).toMatch(/^refused: only http and https URLs can be fetched, not \w+:/);
    });
  }

  it('guards the structured form the same way: { url } at 127.0.0.1 is refused', async () => {
    const tool = createFetchUrlTool();
    expect(tool.parameters).toMatchObject({ required: ['url'] });
    expect(tool.argumentHints).toEqual({ url: true, endsAtSemicolon: true });
    const url = `${server.origin}/`;
    const result = await tool.run(JSON.stringify({ url }), { ...context(), arguments: { url } });
    expect(result).toMatchObject({
      isError: true,
      text: expect.stringMatching(/^blocked: 127\.0\.0\.1 is a loopback address/),
    });
  });
});
