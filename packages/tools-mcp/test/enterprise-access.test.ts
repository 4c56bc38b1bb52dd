import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { createEnterpriseAccessProvider, createMemoryOAuthStore } from '../src/index.js';

// The conformance suite runs the whole flow (auth/cross-app-access-complete-flow); this pins what
// goes to the identity provider and what a refusal says.

let idp: Server | undefined;
afterEach(() => new Promise((resolve) => (idp ? idp.close(resolve) : resolve(undefined))));

async function startIdp(status: number, answer: object): Promise<{ url: string; bodies: URLSearchParams[] }> {
  const bodies: URLSearchParams[] = [];
  idp = createServer((request, response) => {
    let text = '';
    request.on('data', (chunk) => {
      text += chunk;
    });
    request.on('end', () => {
      bodies.push(new URLSearchParams(text));
      response.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(answer));
    });
  });
  await new Promise<void>((resolve) => idp?.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${(idp.address() as AddressInfo).port}/token`, bodies };
}

const discovered = {
  authorizationServerUrl: 'https://auth.example.test',
  authorizationServerMetadata: {
    issuer: 'https://auth.example.test',
    authorization_endpoint: 'https://auth.example.test/authorize',
    token_endpoint: 'https://auth.example.test/token',
    response_types_supported: ['code'],
  },
  resourceMetadata: { resource: 'https://mcp.example.test/mcp' },
};

describe('createEnterpriseAccessProvider', () => {
  it('exchanges the ID token for a grant naming the authorization server and the MCP server', async () => {
    const { url, bodies } = await startIdp(200, {
      access_token: 'grant-jwt',
      issued_token_type: 'urn:ietf:params:oauth:token-type:id-jag',
    });
    const provider = createEnterpriseAccessProvider({
      clientId: 'macstats',
      clientSecret: 'secret',
      idpTokenEndpoint: url,
      idpClientId: 'idp-client',
      idToken: async () => 'id-token\n',
    });
    await provider.saveDiscoveryState?.(discovered);
    const params = await provider.prepareTokenRequest?.('mcp:read');
    expect(Object.fromEntries(params ?? [])).toEqual({
      grant_type: 'urn:ietf:params:oauth:grant-type:jwt-bearer',
      assertion: 'grant-jwt',
      scope: 'mcp:read',
    });
    expect(Object.fromEntries(bodies[0] ?? [])).toEqual({
      grant_type: 'urn:ietf:params:oauth:grant-type:token-exchange',
      subject_token: 'id-token',
      subject_token_type: 'urn:ietf:params:oauth:token-type:id_token',
      requested_token_type: 'urn:ietf:params:oauth:token-type:id-jag',
      audience: 'https://auth.example.test',
      resource: 'https://mcp.example.test/mcp',
      client_id: 'idp-client',
    });
    expect(provider.redirectUrl).toBeUndefined();
  });

  it('says in one sentence when the identity provider refuses', async () => {
    const { url } = await startIdp(400, { error: 'invalid_grant' });
    const provider = createEnterpriseAccessProvider({
      clientId: 'macstats',
      idpTokenEndpoint: url,
      idToken: 'expired',
    });
    await provider.saveDiscoveryState?.(discovered);
    await expect(provider.prepareTokenRequest?.()).rejects.toThrow(
      /^The identity provider at http:\/\/127\.0\.0\.1:\d+ refused to exchange the ID token: invalid_grant\.$/,
    );
  });

  it('keeps its token in the store it is given, for the next run, and drops it there when refused', async () => {
    const store = createMemoryOAuthStore({ wantedScope: 'mcp:read' });
    const options = {
      clientId: 'macstats',
      idpTokenEndpoint: 'https://idp.example.test/token',
      idToken: 'id',
    };
    const tokens = { access_token: 'at', token_type: 'Bearer' };
    await createEnterpriseAccessProvider({ ...options, store }).saveTokens(tokens);
    const next = createEnterpriseAccessProvider({ ...options, store });
    expect(await next.tokens()).toEqual(tokens);
    await next.invalidateCredentials?.('tokens');
    expect(await store.read()).toEqual({ wantedScope: 'mcp:read' });
  });
});
