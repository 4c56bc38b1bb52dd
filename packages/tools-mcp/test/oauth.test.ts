import { mkdtemp, readFile, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type FakeOAuthMcpServer, startFakeOAuthMcpServer } from '@macstats/testing';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  connectMcp,
  createFileOAuthStore,
  McpConnection,
  type McpOAuthState,
  type McpOAuthStore,
  signInMcpServer,
} from '../src/index.js';

// Plays the user's browser: opens the authorization URL and follows its redirect to the loopback.
async function browse(url: URL): Promise<void> {
  const response = await fetch(url);
  await response.text();
}

describe('the MCP authorization flow', () => {
  let server: FakeOAuthMcpServer;
  let dir: string;
  let file: string;
  let store: McpOAuthStore;
  const oauth = () => ({
    store: () => store,
    signInHint: (name: string) => `run "macstats mcp login ${name}"`,
  });

  beforeEach(async () => {
    server = await startFakeOAuthMcpServer();
    dir = await mkdtemp(join(tmpdir(), 'macstats-oauth-'));
    file = join(dir, 'auth', 'remote.json');
    store = createFileOAuthStore(file);
  });
  afterEach(async () => {
    await server.close();
    await rm(dir, { recursive: true, force: true });
  });

  it('says in one sentence that a server needs sign-in when no token is stored', async () => {
    await expect(connectMcp({ url: server.url }, { name: 'remote', oauth: oauth() })).rejects.toThrow(
      'MCP server "remote" needs sign-in: run "macstats mcp login remote".',
    );
  });

  it('signs in with discovery, dynamic registration and a PKCE code through a loopback redirect', async () => {
    const urls: URL[] = [];
    const result = await signInMcpServer(
      { url: server.url },
      {
        store,
        onAuthorizationUrl: async (url) => {
          urls.push(url);
          await browse(url);
        },
      },
    );
    expect(result.status).toBe('signed-in');
    expect(urls[0]?.searchParams.get('code_challenge_method')).toBe('S256');
    expect(urls[0]?.searchParams.get('redirect_uri')).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/callback$/);
    expect(server.record.registrations).toBe(1);
    expect(server.record.grants).toEqual(['authorization_code']);
    expect(server.record.resources).toEqual([server.url]);
  });

  it('keeps the tokens in a file only its owner can read', async () => {
    await signInMcpServer({ url: server.url }, { store, onAuthorizationUrl: browse });
    expect((await stat(file)).mode & 0o777).toBe(0o600);
    expect(JSON.parse(await readFile(file, 'utf8')).tokens.refresh_token).toEqual(expect.any(String));
  });

  it('calls a tool with the stored token', async () => {
    await signInMcpServer({ url: server.url }, { store, onAuthorizationUrl: browse });
    const connection = await connectMcp({ url: server.url }, { name: 'remote', oauth: oauth() });
    try {
      expect(await connection.callTool('echo', { message: 'hi' })).toMatchObject({ text: 'Echo: hi' });
    } finally {
      await connection.close();
    }
  });

  it('refreshes an expired access token and goes on', async () => {
    await signInMcpServer({ url: server.url }, { store, onAuthorizationUrl: browse });
    const connection = await connectMcp({ url: server.url }, { name: 'remote', oauth: oauth() });
    try {
      server.expireAccessTokens();
      expect(await connection.callTool('echo', { message: 'again' })).toMatchObject({ text: 'Echo: again' });
      expect(server.record.grants).toEqual(['authorization_code', 'refresh_token']);
    } finally {
      await connection.close();
    }
  });

  it('says the sign-in has expired when the refresh token is refused', async () => {
    await signInMcpServer({ url: server.url }, { store, onAuthorizationUrl: browse });
    server.expireAccessTokens();
    server.revokeRefreshTokens();
    await expect(connectMcp({ url: server.url }, { name: 'remote', oauth: oauth() })).rejects.toThrow(
      'The sign-in to MCP server "remote" has expired and could not be refreshed; sign in again: run "macstats mcp login remote".',
    );
  });

  it('signs in again on another loopback port with a new registration', async () => {
    await signInMcpServer({ url: server.url }, { store, onAuthorizationUrl: browse });
    await signInMcpServer({ url: server.url }, { store, onAuthorizationUrl: browse });
    expect(server.record.registrations).toBe(2);
    expect(server.record.grants).toEqual(['authorization_code', 'authorization_code']);
  });

  it('keeps a sign-in whole while the connection keeps trying the server', async () => {
    // What the dashboard does: the server set retries a server that asked for sign-in in the
    // background while the user signs in through another provider on the same file.
    const connection = new McpConnection({ url: server.url }, { name: 'remote', oauth: oauth() });
    try {
      await expect(connection.connect()).rejects.toThrow('needs sign-in');
      const during: McpOAuthState[] = [];
      const result = await signInMcpServer(
        { url: server.url },
        {
          store: createFileOAuthStore(file),
          onAuthorizationUrl: async (url) => {
            const before = await store.read();
            await expect(connection.connect(undefined, { now: true })).rejects.toThrow('needs sign-in');
            during.push(before, await store.read());
            await browse(url);
          },
        },
      );
      expect(result.status).toBe('signed-in');
      expect(during[1]).toEqual(during[0]);
      await connection.connect(undefined, { now: true });
      expect(connection.tools.map((tool) => tool.name)).toEqual(['echo', 'private_notes']);
    } finally {
      await connection.close();
    }
  });

  it('leaves the working tokens as they were when a second sign-in is stopped before the browser comes back', async () => {
    await signInMcpServer({ url: server.url }, { store, onAuthorizationUrl: browse });
    const signedIn = await readFile(file, 'utf8');
    const stop = new AbortController();
    const second = signInMcpServer(
      { url: server.url },
      {
        store,
        signal: stop.signal,
        // The user is shown the URL, then presses Ctrl-C instead of opening it.
        onAuthorizationUrl: () => stop.abort(new Error('stopped')),
      },
    );
    await expect(second).rejects.toThrow('stopped');
    expect(await readFile(file, 'utf8')).toBe(signedIn);
    const connection = await connectMcp({ url: server.url }, { name: 'remote', oauth: oauth() });
    try {
      expect(await connection.callTool('echo', { message: 'still' })).toMatchObject({ text: 'Echo: still' });
    } finally {
      await connection.close();
    }
  });

  it('leaves the working tokens as they were when the authorization server refuses a second sign-in', async () => {
    await signInMcpServer({ url: server.url }, { store, onAuthorizationUrl: browse });
    const signedIn = await readFile(file, 'utf8');
    server.denyAuthorizations();
    await expect(
      signInMcpServer({ url: server.url }, { store, onAuthorizationUrl: browse }),
    ).rejects.toThrow();
    expect(await readFile(file, 'utf8')).toBe(signedIn);
  });
});
