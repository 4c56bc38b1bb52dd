import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { FAKE_OAUTH_SCOPES, type FakeOAuthMcpServer, startFakeOAuthMcpServer } from '@macstats/testing';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { connectMcp, createFileOAuthStore, type McpOAuthStore, signInMcpServer } from '../src/index.js';

// Plays the user's browser: opens the authorization URL and follows its redirect to the loopback.
async function browse(url: URL): Promise<void> {
  await (await fetch(url)).text();
}

// The MCP authorization spec's step-up: a server that answers a call with 403 insufficient_scope
// asks for more than the sign-in granted. The user is told so, and the next sign-in asks for it.
describe('a server that asks for more scope when a tool is called', () => {
  let server: FakeOAuthMcpServer;
  let dir: string;
  let store: McpOAuthStore;
  const oauth = () => ({
    store: () => store,
    signInHint: (name: string) => `run "macstats mcp login ${name}"`,
  });
  const both = `${FAKE_OAUTH_SCOPES.base} ${FAKE_OAUTH_SCOPES.extra}`;

  beforeEach(async () => {
    server = await startFakeOAuthMcpServer();
    dir = await mkdtemp(join(tmpdir(), 'macstats-step-up-'));
    store = createFileOAuthStore(join(dir, 'auth', 'notes.json'));
  });
  afterEach(async () => {
    await server.close();
    await rm(dir, { recursive: true, force: true });
  });

  it('says the call needs more access, names it, and the next sign-in asks for it so the call works', async () => {
    await signInMcpServer({ url: server.url }, { store, onAuthorizationUrl: browse });
    expect(server.record.scopes).toEqual([FAKE_OAUTH_SCOPES.base]);
    const connection = await connectMcp({ url: server.url }, { name: 'notes', oauth: oauth() });
    try {
      expect(await connection.callTool('echo', { message: 'hi' })).toMatchObject({ text: 'Echo: hi' });
      const refused = await connection.callTool('private_notes', { query: 'milk' });
      expect(refused).toMatchObject({ isError: true });
      expect(refused.text).toContain(
        `MCP server "notes" needs more access for this (${FAKE_OAUTH_SCOPES.extra}): run "macstats mcp login notes"`,
      );
      // A login that cannot get the scope must not be asked for again and again.
      expect(refused.text).toContain("this account is not allowed it: ask the server's administrator");
      // The SDK refreshes the token once and tries again before it gives up: two refusals, no loop.
      expect(server.insufficientScope).toBe(2);
      // Signing in again asks for what the server said it needs, not the narrow scope again.
      await signInMcpServer({ url: server.url }, { store, onAuthorizationUrl: browse });
      expect(server.record.scopes.at(-1)?.split(' ').sort()).toEqual(both.split(' ').sort());
      expect(await connection.callTool('private_notes', { query: 'milk' })).toMatchObject({
        text: 'Private notes matching "milk": none',
      });
    } finally {
      await connection.close();
    }
  });

  it('uses the wider tokens a sign-in elsewhere stored at the next call, with no refresh to lean on', async () => {
    await signInMcpServer({ url: server.url }, { store, onAuthorizationUrl: browse });
    const connection = await connectMcp({ url: server.url }, { name: 'notes', oauth: oauth() });
    try {
      expect(await connection.callTool('private_notes', { query: 'milk' })).toMatchObject({ isError: true });
      // The user signs in again (`macstats mcp login`, another process); this server's old grants
      // cannot be refreshed, as with an authorization server that issues no refresh tokens.
      await signInMcpServer({ url: server.url }, { store, onAuthorizationUrl: browse });
      server.revokeRefreshTokens();
      const signedIn = (await store.read()).tokens;
      expect(await connection.callTool('private_notes', { query: 'milk' })).toMatchObject({
        text: 'Private notes matching "milk": none',
      });
      expect((await store.read()).tokens).toEqual(signedIn);
    } finally {
      await connection.close();
    }
  });

  it('still says "expired" when tokens are refused for a scope they were granted', async () => {
    await signInMcpServer({ url: server.url }, { store, onAuthorizationUrl: browse });
    server.expireAccessTokens();
    server.revokeRefreshTokens();
    await expect(connectMcp({ url: server.url }, { name: 'notes', oauth: oauth() })).rejects.toThrow(
      'has expired and could not be refreshed',
    );
  });
});
