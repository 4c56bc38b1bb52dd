import { createHash, randomBytes } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { sendJson } from './http-helpers.js';

interface PendingCode {
  clientId: string;
  redirectUri: string;
  challenge: string;
  resource: string | undefined;
  scopes: string[];
}

/** What the fake authorization server has seen, for assertions. */
export interface FakeOAuthRecord {
  /** Client registrations received at `/register`. */
  registrations: number;
  /** Grant types of every successful `/token` request, in order. */
  grants: string[];
  /** `resource` parameters of every authorization request (RFC 8707). */
  resources: (string | undefined)[];
  /** `scope` parameters of every authorization request, as sent (`undefined` when none). */
  scopes: (string | undefined)[];
}

const token = () => randomBytes(16).toString('base64url');

async function readForm(request: IncomingMessage): Promise<URLSearchParams> {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  return new URLSearchParams(Buffer.concat(chunks).toString('utf8'));
}

async function readJson(request: IncomingMessage): Promise<Record<string, unknown>> {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  return JSON.parse(Buffer.concat(chunks).toString('utf8') || '{}') as Record<string, unknown>;
}

/**
 * The authorization-server half of the fake: dynamic registration, an authorization endpoint
 * that approves at once (the test plays the user's browser), PKCE (S256) code exchange and
 * refresh-token rotation.
 */
export class FakeOAuthAuthority {
  readonly record: FakeOAuthRecord = { registrations: 0, grants: [], resources: [], scopes: [] };
  readonly #clients = new Map<string, string[]>();
  /** Clients registered ahead of time (mcp.json's `oauth.clientId`), with their secrets. */
  readonly #preRegistered = new Map<string, string | undefined>();
  readonly #codes = new Map<string, PendingCode>();
  /** Access tokens and the scopes each was granted. */
  readonly #access = new Map<string, string[]>();
  readonly #refresh = new Map<string, { clientId: string; scopes: string[] }>();
  #denying = false;

  constructor(readonly base: () => string) {}

  /** True for an access token this server issued and has not expired. */
  isValid(accessToken: string): boolean {
    return this.#access.has(accessToken);
  }

  /** The scopes an access token was granted (none for an unknown token). */
  scopesOf(accessToken: string): string[] {
    return this.#access.get(accessToken) ?? [];
  }

  /** From now on the user says no: `/authorize` redirects with `error=access_denied`. */
  denyAuthorizations(): void {
    this.#denying = true;
  }

  /** Expires every access token, as time passing would; refresh tokens still work. */
  expireAccessTokens(): void {
    this.#access.clear();
  }

  /** Revokes every refresh token: the next expiry needs a new sign-in. */
  revokeRefreshTokens(): void {
    this.#refresh.clear();
  }

  metadata(): Record<string, unknown> {
    const base = this.base();
    return {
      issuer: base,
      authorization_endpoint: `${base}/authorize`,
      token_endpoint: `${base}/token`,
      registration_endpoint: `${base}/register`,
      response_types_supported: ['code'],
      grant_types_supported: ['authorization_code', 'refresh_token', 'client_credentials'],
      code_challenge_methods_supported: ['S256'],
      token_endpoint_auth_methods_supported: ['none', 'client_secret_basic', 'client_secret_post'],
    };
  }

  /**
   * Registers a client ahead of time, as an administrator would: it may use any loopback
   * redirect (RFC 8252), and with a secret it must authenticate at `/token`.
   */
  preRegister(clientId: string, clientSecret?: string): void {
    this.#preRegistered.set(clientId, clientSecret);
  }

  /** The client a `/token` request authenticates as (HTTP Basic or the form), or why not. */
  #tokenClient(request: IncomingMessage, form: URLSearchParams): string | { refused: string } {
    const basic = /^Basic (.+)$/i.exec(request.headers.authorization ?? '')?.[1];
    const [id, secret] = basic
      ? Buffer.from(basic, 'base64').toString('utf8').split(':').map(decodeURIComponent)
      : [form.get('client_id') ?? '', form.get('client_secret') ?? undefined];
    const clientId = id ?? '';
    if (!this.#preRegistered.has(clientId)) return clientId;
    const expected = this.#preRegistered.get(clientId);
    if (expected !== undefined && secret !== expected) return { refused: 'client authentication failed' };
    return clientId;
  }

  async register(request: IncomingMessage, response: ServerResponse): Promise<void> {
    const body = await readJson(request);
    const redirects = Array.isArray(body.redirect_uris) ? body.redirect_uris.map(String) : [];
    if (redirects.length === 0) {
      sendJson(response, 400, {
        error: 'invalid_redirect_uri',
        error_description: 'redirect_uris is required',
      });
      return;
    }
    const clientId = token();
    this.#clients.set(clientId, redirects);
    this.record.registrations++;
    sendJson(response, 201, {
      ...body,
      client_id: clientId,
      client_id_issued_at: Math.floor(Date.now() / 1000),
      token_endpoint_auth_method: 'none',
    });
  }

  authorize(url: URL, response: ServerResponse): void {
    const clientId = url.searchParams.get('client_id') ?? '';
    const redirectUri = url.searchParams.get('redirect_uri') ?? '';
    const challenge = url.searchParams.get('code_challenge') ?? '';
    const registered = this.#preRegistered.has(clientId)
      ? /^http:\/\/127\.0\.0\.1:\d+\/callback$/.test(redirectUri)
        ? [redirectUri]
        : []
      : this.#clients.get(clientId);
    if (!registered?.includes(redirectUri)) {
      sendJson(response, 400, {
        error: 'invalid_request',
        error_description: 'unknown client or redirect_uri',
      });
      return;
    }
    const target = new URL(redirectUri);
    const state = url.searchParams.get('state');
    if (state) target.searchParams.set('state', state);
    if (this.#denying) {
      target.searchParams.set('error', 'access_denied');
      target.searchParams.set('error_description', 'the user said no');
    } else if (url.searchParams.get('code_challenge_method') !== 'S256' || challenge === '') {
      target.searchParams.set('error', 'invalid_request');
      target.searchParams.set('error_description', 'PKCE S256 is required');
    } else {
      const code = token();
      const resource = url.searchParams.get('resource') ?? undefined;
      const scope = url.searchParams.get('scope') ?? undefined;
      this.record.resources.push(resource);
      this.record.scopes.push(scope);
      const scopes = (scope ?? '').split(' ').filter(Boolean);
      this.#codes.set(code, { clientId, redirectUri, challenge, resource, scopes });
      target.searchParams.set('code', code);
    }
    response.writeHead(302, { location: target.href }).end();
  }

  async token(request: IncomingMessage, response: ServerResponse): Promise<void> {
    const form = await readForm(request);
    const grant = form.get('grant_type') ?? '';
    const client = this.#tokenClient(request, form);
    if (typeof client !== 'string') {
      sendJson(response, 401, { error: 'invalid_client', error_description: client.refused });
      return;
    }
    const clientId = client;
    const refuse = (description: string) =>
      sendJson(response, 400, { error: 'invalid_grant', error_description: description });
    let scopes: string[];
    if (grant === 'authorization_code') {
      const pending = this.#codes.get(form.get('code') ?? '');
      this.#codes.delete(form.get('code') ?? '');
      const verifier = form.get('code_verifier') ?? '';
      const challenge = createHash('sha256').update(verifier).digest('base64url');
      if (!pending || pending.clientId !== clientId) return refuse('unknown code');
      if (pending.redirectUri !== form.get('redirect_uri')) return refuse('redirect_uri differs');
      if (pending.challenge !== challenge) return refuse('PKCE verification failed');
      scopes = pending.scopes;
    } else if (grant === 'refresh_token') {
      const refresh = form.get('refresh_token') ?? '';
      const held = this.#refresh.get(refresh);
      if (held?.clientId !== clientId) return refuse('unknown refresh token');
      this.#refresh.delete(refresh);
      // A refresh keeps the grant's scopes: it never widens them.
      scopes = held.scopes;
    } else if (grant === 'client_credentials') {
      // Only a client registered ahead of time with a secret is a service account.
      if (this.#preRegistered.get(clientId) === undefined) {
        sendJson(response, 401, {
          error: 'invalid_client',
          error_description: 'unknown confidential client',
        });
        return;
      }
      scopes = (form.get('scope') ?? '').split(' ').filter(Boolean);
    } else {
      sendJson(response, 400, { error: 'unsupported_grant_type' });
      return;
    }
    const access = token();
    const refresh = token();
    this.#access.set(access, scopes);
    this.#refresh.set(refresh, { clientId, scopes });
    this.record.grants.push(grant);
    sendJson(response, 200, {
      access_token: access,
      token_type: 'Bearer',
      expires_in: 3600,
      refresh_token: refresh,
      ...(scopes.length > 0 ? { scope: scopes.join(' ') } : {}),
    });
  }
}
