import { createHash } from 'node:crypto';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type FakeOAuthMcpServer, startFakeOAuthMcpServer } from '../src/index.js';

describe('the fake OAuth-protected MCP server', () => {
  let server: FakeOAuthMcpServer;
  beforeEach(async () => {
    server = await startFakeOAuthMcpServer();
  });
  afterEach(async () => {
    await server.close();
  });
  const base = () => new URL(server.url).origin;

  it('answers 401 without a token, naming its protected-resource metadata', async () => {
    const response = await fetch(server.url, { method: 'POST', body: '{}' });
    expect(response.status).toBe(401);
    expect(response.headers.get('www-authenticate')).toContain(
      `resource_metadata="${base()}/.well-known/oauth-protected-resource/mcp"`,
    );
    expect(server.unauthorized).toBe(1);
  });

  it('refuses a code exchanged with the wrong PKCE verifier', async () => {
    const registered = await fetch(`${base()}/register`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ redirect_uris: ['http://127.0.0.1:1/callback'] }),
    });
    const { client_id } = (await registered.json()) as { client_id: string };
    const challenge = createHash('sha256').update('the-right-verifier').digest('base64url');
    const authorize = new URL(`${base()}/authorize`);
    for (const [key, value] of Object.entries({
      client_id,
      redirect_uri: 'http://127.0.0.1:1/callback',
      response_type: 'code',
      code_challenge: challenge,
      code_challenge_method: 'S256',
    }))
      authorize.searchParams.set(key, value);
    const redirect = await fetch(authorize, { redirect: 'manual' });
    const code = new URL(redirect.headers.get('location') ?? '').searchParams.get('code') ?? '';
    const token = await fetch(`${base()}/token`, {
      method: 'POST',
      body: new URLSearchParams({
        grant_type: 'authorization_code',
        code,
        client_id,
        redirect_uri: 'http://127.0.0.1:1/callback',
        code_verifier: 'a-wrong-verifier',
      }),
    });
    expect(token.status).toBe(400);
    expect(await token.json()).toMatchObject({
      error: 'invalid_grant',
      error_description: 'PKCE verification failed',
    });
  });
});
