import type { OAuthClientProvider, OAuthDiscoveryState } from '@modelcontextprotocol/sdk/client/auth.js';
import type {
  OAuthClientInformationMixed,
  OAuthClientMetadata,
  OAuthTokens,
} from '@modelcontextprotocol/sdk/shared/auth.js';
import { type McpOAuthStore, updateStore } from './oauth-store.js';

/** Options of `createEnterpriseAccessProvider`. */
export interface EnterpriseAccessOptions {
  /** The client id this app was given at the MCP server's authorization server. */
  clientId: string;
  /** Its secret there (sent with HTTP Basic, or as the server's metadata asks). */
  clientSecret?: string;
  /** The token endpoint of the enterprise identity provider (IdP) that the user signed in to. */
  idpTokenEndpoint: string | URL;
  /** The user's ID token from that IdP; a function is asked again for each exchange. */
  idToken: string | (() => string | Promise<string>);
  /** The client id this app has at the IdP, when the IdP wants one with the exchange. */
  idpClientId?: string;
  /** Its secret at the IdP, when it has one. */
  idpClientSecret?: string;
  /** Scopes to ask for at the MCP server's authorization server; default: none named. */
  scope?: string;
  /**
   * The issuer URL of the authorization server the client id belongs to. When set, the
   * credentials go to no other one. Default: the one the MCP server names.
   */
  expectedIssuer?: string;
  /** Time allowed for the exchange at the IdP, in milliseconds; default 30 000. */
  timeoutMs?: number;
  /** Where the access token is kept between runs (e.g. the sign-in file); default: memory only. */
  store?: McpOAuthStore;
}

const TOKEN_EXCHANGE = 'urn:ietf:params:oauth:grant-type:token-exchange';
const JWT_BEARER = 'urn:ietf:params:oauth:grant-type:jwt-bearer';
const ID_TOKEN = 'urn:ietf:params:oauth:token-type:id_token';
const ID_JAG = 'urn:ietf:params:oauth:token-type:id-jag';

/**
 * An OAuth client provider for enterprise-managed authorization (the MCP "cross-app access"
 * extension, SEP-990): the user's ID token from the company's identity provider is exchanged
 * there (RFC 8693) for an identity assertion grant naming the MCP server, which the server's
 * authorization server trades for an access token (RFC 7523 JWT bearer grant). No browser, no
 * registration: pass it as `McpConnectOptions.oauth.provider(server)`.
 *
 * @example
 * ```ts
 * // The app reads its settings and passes them in; the library reads no environment.
 * const provider = createEnterpriseAccessProvider({
 *   clientId: settings.clientId, clientSecret: settings.clientSecret,
 *   idpTokenEndpoint: 'https://idp.example.com/oauth2/token',
 *   idToken: () => readFile(idTokenFile, 'utf8'),
 * });
 * ```
 */
export function createEnterpriseAccessProvider(options: EnterpriseAccessOptions): OAuthClientProvider {
  if (!options.clientId) throw new Error('createEnterpriseAccessProvider needs the clientId.');
  const endpoint = new URL(options.idpTokenEndpoint);
  const { store } = options;
  let tokens: OAuthTokens | undefined;
  let discovery: OAuthDiscoveryState | undefined;
  const information: OAuthClientInformationMixed & { issuer?: string } = {
    client_id: options.clientId,
    ...(options.clientSecret ? { client_secret: options.clientSecret } : {}),
    ...(options.expectedIssuer ? { issuer: options.expectedIssuer } : {}),
  };
  const metadata: OAuthClientMetadata = {
    client_name: 'macstats-agent',
    redirect_uris: [],
    grant_types: [JWT_BEARER],
    token_endpoint_auth_method: options.clientSecret ? 'client_secret_basic' : 'none',
    ...(options.scope ? { scope: options.scope } : {}),
  };

  async function identityGrant(): Promise<string> {
    const authorizationServer =
      discovery?.authorizationServerMetadata?.issuer ?? discovery?.authorizationServerUrl;
    const resource = discovery?.resourceMetadata?.resource;
    if (!authorizationServer || !resource) {
      throw new Error(
        'The MCP server named no authorization server and resource to ask the identity provider for.',
      );
    }
    const idToken = typeof options.idToken === 'function' ? await options.idToken() : options.idToken;
    const body = new URLSearchParams({
      grant_type: TOKEN_EXCHANGE,
      subject_token: idToken.trim(),
      subject_token_type: ID_TOKEN,
      requested_token_type: ID_JAG,
      audience: authorizationServer,
      resource,
    });
    if (options.scope) body.set('scope', options.scope);
    const headers: Record<string, string> = { 'content-type': 'application/x-www-form-urlencoded' };
    if (options.idpClientId && options.idpClientSecret) {
      const pair = `${encodeURIComponent(options.idpClientId)}:${encodeURIComponent(options.idpClientSecret)}`;
      headers.authorization = `Basic ${Buffer.from(pair).toString('base64')}`;
    } else if (options.idpClientId) body.set('client_id', options.idpClientId);
    const response = await fetch(endpoint, {
      method: 'POST',
      headers,
      body,
      redirect: 'error',
      signal: AbortSignal.timeout(options.timeoutMs ?? 30_000),
    });
    const answer = (await response.json().catch(() => ({}))) as Record<string, unknown>;
    if (!response.ok || typeof answer.access_token !== 'string') {
      const why = typeof answer.error === 'string' ? `: ${answer.error}` : ` (HTTP ${response.status})`;
      throw new Error(`The identity provider at ${endpoint.origin} refused to exchange the ID token${why}.`);
    }
    if (answer.issued_token_type !== undefined && answer.issued_token_type !== ID_JAG) {
      throw new Error(
        `The identity provider at ${endpoint.origin} gave a ${String(answer.issued_token_type)}, not an identity assertion grant.`,
      );
    }
    return answer.access_token;
  }

  return {
    get redirectUrl() {
      return undefined;
    },
    get clientMetadata() {
      return metadata;
    },
    clientInformation: () => information,
    tokens: async () => (store ? (await store.read()).tokens : tokens),
    saveTokens: async (saved) => {
      tokens = saved;
      if (store) await updateStore(store, (state) => ({ ...state, tokens: saved }));
    },
    saveDiscoveryState: (state) => {
      discovery = state;
    },
    discoveryState: () => discovery,
    invalidateCredentials: async (scope) => {
      if (scope === 'all' || scope === 'discovery') discovery = undefined;
      if (scope !== 'all' && scope !== 'tokens') return;
      tokens = undefined;
      if (store) await updateStore(store, ({ tokens: _refused, ...state }) => state);
    },
    redirectToAuthorization: () => {
      throw new Error('Enterprise-managed sign-in needs no browser; the authorization server asked for one.');
    },
    saveCodeVerifier: () => {},
    codeVerifier: () => {
      throw new Error('Enterprise-managed sign-in uses no authorization code.');
    },
    async prepareTokenRequest(scope) {
      const params = new URLSearchParams({ grant_type: JWT_BEARER, assertion: await identityGrant() });
      if (scope) params.set('scope', scope);
      return params;
    },
  };
}
