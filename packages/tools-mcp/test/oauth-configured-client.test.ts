import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type FakeOAuthMcpServer, startFakeOAuthMcpServer } from '@macstats/testing';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  connectMcp,
  createFileOAuthStore,
  type McpOAuthStore,
  parseMcpConfig,
  signInMcpServer,
} from '../src/index.js';

async function browse(url: URL): Promise<void> {
  await (await fetch(url)).text();
}

// mcp.json's "oauth": a client registered ahead of time, or a service account's credentials.
describe('a client configured in mcp.json', () => {
  let server: FakeOAuthMcpServer;
  let dir: string;
  let file: string;
  let store: McpOAuthStore;
  const oauth = () => ({
    store: () => store,
    signInHint: (name: string) => `run "macstats mcp login ${name}"`,
  });
  const configured = (entry: object) => {
    const config = parseMcpConfig(
      JSON.stringify({ mcpServers: { remote: { url: server.url, oauth: entry } } }),
    );
    expect(config.errors).toEqual([]);
    return config.servers[0]?.server as Parameters<typeof signInMcpServer>[0];
  };

  beforeEach(async () => {
    server = await startFakeOAuthMcpServer();
    dir = await mkdtemp(join(tmpdir(), 'macstats-client-'));
    file = join(dir, 'auth', 'remote.json');
    store = createFileOAuthStore(file);
  });
  afterEach(async () => {
    await server.close();
    await rm(dir, { recursive: true, force: true });
  });

  it('signs in as a client registered ahead of time, without registering, and asks for its scope', async () => {
    server.preRegister('macstats-desk', 's3cret');
    const spec = configured({ clientId: 'macstats-desk', clientSecret: 's3cret', scope: 'notes:private' });
    const urls: URL[] = [];
    const onAuthorizationUrl = async (url: URL) => {
      urls.push(url);
      return browse(url);
    };
    await signInMcpServer(spec, { store, onAuthorizationUrl });
    expect(server.record.registrations).toBe(0);
    expect(urls[0]?.searchParams.get('client_id')).toBe('macstats-desk');
    expect(urls[0]?.searchParams.get('scope')?.split(' ')).toContain('notes:private');
    // The secret stays in mcp.json: the sign-in file never holds it.
    expect(await readFile(file, 'utf8')).not.toContain('s3cret');
    const connection = await connectMcp(spec, { name: 'remote', oauth: oauth() });
    try {
      expect(await connection.callTool('private_notes', { query: 'tea' })).toMatchObject({
        text: 'Private notes matching "tea": none',
      });
    } finally {
      await connection.close();
    }
  });

  it('gets a token with client credentials, with no browser, and keeps it for the next start', async () => {
    server.preRegister('svc', 'svc-secret');
    const spec = configured({ grant: 'client_credentials', clientId: 'svc', clientSecret: 'svc-secret' });
    const result = await signInMcpServer(spec, {
      store,
      onAuthorizationUrl: () => {
        throw new Error('a service account must not be sent to a browser');
      },
    });
    expect(result.status).toBe('signed-in');
    expect(server.record.grants).toEqual(['client_credentials']);
    const connection = await connectMcp(spec, { name: 'remote', oauth: oauth() });
    try {
      expect(await connection.callTool('echo', { message: 'hi' })).toMatchObject({ text: 'Echo: hi' });
      expect(server.record.grants).toEqual(['client_credentials']);
    } finally {
      await connection.close();
    }
    expect(await readFile(file, 'utf8')).not.toContain('svc-secret');
  });

  it('fetches a new token by itself when the service account’s expires', async () => {
    server.preRegister('svc', 'svc-secret');
    const spec = configured({ grant: 'client_credentials', clientId: 'svc', clientSecret: 'svc-secret' });
    const connection = await connectMcp(spec, { name: 'remote', oauth: oauth() });
    try {
      server.expireAccessTokens();
      expect(await connection.callTool('echo', { message: 'again' })).toMatchObject({ text: 'Echo: again' });
      expect(server.record.grants).toEqual(['client_credentials', 'client_credentials']);
    } finally {
      await connection.close();
    }
  });

  it('refuses an oauth entry it cannot follow, in one sentence, and loads nothing for it', () => {
    const bad = (entry: unknown) =>
      parseMcpConfig(
        JSON.stringify({ mcpServers: { remote: { url: 'https://mcp.example/mcp', oauth: entry } } }),
      );
    expect(bad({ grant: 'client_credentials', clientId: 'svc' }).errors).toEqual([
      'MCP server "remote": "oauth.grant": "client_credentials" needs "clientId" and "clientSecret".',
    ]);
    expect(bad({ clientMetadataUrl: 'http://example.com/client.json' }).errors).toEqual([
      'MCP server "remote": "oauth.clientMetadataUrl" must be an https:// URL with a path.',
    ]);
    expect(bad({ clientSecrit: 'x' }).servers).toEqual([]);
  });
});
