import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type FakeOAuthMcpServer, startFakeOAuthMcpServer } from '@macstats/testing';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  connectMcp,
  createFileOAuthStore,
  loadMcpConfig,
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
    await signInMcpServer(spec, {
      store,
      onAuthorizationUrl: async (url) => {
        urls.push(url);
        await browse(url);
      },
    });
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
    const needs =
      'MCP server "remote": "oauth.grant": "client_credentials" needs "clientId" and one of "clientSecret" or "privateKeyFile".';
    expect(bad({ grant: 'client_credentials', clientId: 'svc' }).errors).toEqual([needs]);
    expect(
      bad({ grant: 'client_credentials', clientId: 'svc', clientSecret: 'x', privateKeyFile: 'svc.pem' })
        .errors,
    ).toEqual([needs]);
    expect(bad({ clientId: 'svc', privateKeyFile: 'svc.pem' }).errors).toEqual([
      'MCP server "remote": "oauth.privateKeyFile" signs client-credentials requests: add "grant": "client_credentials".',
    ]);
    expect(bad({ clientMetadataUrl: 'http://example.com/client.json' }).errors).toEqual([
      'MCP server "remote": "oauth.clientMetadataUrl" must be an https:// URL with a path.',
    ]);
    expect(bad({ clientSecrit: 'x' }).servers).toEqual([]);
  });

  it('refuses an enterprise sign-in it cannot follow, in one sentence', () => {
    const bad = (entry: object) =>
      parseMcpConfig(
        JSON.stringify({ mcpServers: { remote: { url: 'https://mcp.example/mcp', oauth: entry } } }),
      ).errors;
    const enterprise = {
      grant: 'enterprise',
      clientId: 'macstats',
      idpTokenEndpoint: 'https://idp.example/token',
      idTokenFile: 'id-token',
    };
    expect(bad(enterprise)).toEqual([]);
    expect(bad({ ...enterprise, idTokenFile: undefined })).toEqual([
      'MCP server "remote": "oauth.grant": "enterprise" needs "clientId", "idpTokenEndpoint" and "idTokenFile".',
    ]);
    // The user's ID token never goes in the clear beyond this computer.
    expect(bad({ ...enterprise, idpTokenEndpoint: 'http://idp.example/token' })).toEqual([
      'MCP server "remote": "oauth.idpTokenEndpoint" must be an https:// URL (http:// only to this computer).',
    ]);
    expect(bad({ ...enterprise, idpTokenEndpoint: 'http://127.0.0.1:8080/token' })).toEqual([]);
    expect(bad({ clientId: 'macstats', idTokenFile: 'id-token' })).toEqual([
      'MCP server "remote": "oauth.idTokenFile" belongs to enterprise-managed sign-in: add "grant": "enterprise".',
    ]);
    expect(bad({ ...enterprise, grant: 'password' })).toEqual([
      'MCP server "remote": "oauth.grant" must be "authorization_code", "client_credentials" or "enterprise".',
    ]);
  });

  it('reads the files an oauth entry names from beside mcp.json, or where an absolute path says', async () => {
    const config = join(dir, 'mcp.json');
    const account = (privateKeyFile: string) => ({
      url: 'https://mcp.example/mcp',
      oauth: { grant: 'client_credentials', clientId: 'svc', privateKeyFile },
    });
    await writeFile(
      config,
      JSON.stringify({
        mcpServers: {
          near: account('keys/svc.pem'),
          far: account('/etc/macstats/svc.pem'),
          company: {
            url: 'https://mcp.example/mcp',
            oauth: {
              grant: 'enterprise',
              clientId: 'macstats',
              idpTokenEndpoint: 'https://idp.example/token',
              idTokenFile: 'sso/id-token',
            },
          },
        },
      }),
    );
    const { servers, errors } = await loadMcpConfig(config);
    expect(errors).toEqual([]);
    const oauthOf = (name: string) => {
      const server = servers.find((entry) => entry.name === name)?.server;
      return server && 'url' in server ? server.oauth : undefined;
    };
    const keyOf = (name: string) => oauthOf(name)?.privateKeyFile;
    expect(keyOf('near')).toBe(join(dir, 'keys', 'svc.pem'));
    expect(keyOf('far')).toBe('/etc/macstats/svc.pem');
    expect(oauthOf('company')?.idTokenFile).toBe(join(dir, 'sso', 'id-token'));
  });

  it('says in one sentence that a service account cannot sign in when its key file cannot be read', async () => {
    const spec = configured({
      grant: 'client_credentials',
      clientId: 'svc',
      privateKeyFile: join(dir, 'none.pem'),
    });
    await expect(signInMcpServer(spec, { store, onAuthorizationUrl: browse })).rejects.toThrow(
      `The private key file ${join(dir, 'none.pem')} cannot be read (ENOENT).`,
    );
    expect(await store.read()).toEqual({});
  });
});
