import type { OAuthClientProvider } from '@modelcontextprotocol/sdk/client/auth.js';
import type {
  OAuthClientInformationMixed,
  OAuthClientMetadata,
  OAuthTokens,
} from '@modelcontextprotocol/sdk/shared/auth.js';
import { mcpError } from './mcp-errors.js';
import type { McpOAuthStore } from './oauth-store.js';

/** Options of `createClientCredentialsProvider`. */
export interface ClientCredentialsOptions {
  /** Where the access token (and the issuer the client is bound to) is kept. */
  store: McpOAuthStore;
  clientId: string;
  clientSecret: string;
  /** Scope to ask for; default none (the server's default). */
  scope?: string | undefined;
  /** How the client names itself; default `'macstats-agent'`. */
  clientName?: string | undefined;
}

/**
 * The OAuth client-credentials grant (a service account: no user, no browser) as the SDK's
 * `OAuthClientProvider`: the SDK fetches a token with the client's id and secret (HTTP Basic)
 * whenever the server asks, and this keeps it in `store` so restarts reuse it until it expires.
 */
export function createClientCredentialsProvider(options: ClientCredentialsOptions): OAuthClientProvider {
  const { store } = options;
  const update = async (change: (state: Awaited<ReturnType<McpOAuthStore['read']>>) => object) => {
    if (store.update) await store.update((state) => ({ ...state, ...change(state) }));
    else {
      const state = await store.read();
      await store.write({ ...state, ...change(state) });
    }
  };
  return {
    // No redirect: the SDK takes this as a non-interactive flow and asks for a token directly.
    get redirectUrl() {
      return undefined;
    },
    get clientMetadata(): OAuthClientMetadata {
      return {
        client_name: options.clientName ?? 'macstats-agent',
        redirect_uris: [],
        grant_types: ['client_credentials'],
        token_endpoint_auth_method: 'client_secret_basic',
        ...(options.scope ? { scope: options.scope } : {}),
      };
    },
    async clientInformation(): Promise<OAuthClientInformationMixed> {
      const stored = (await store.read()).clientInformation;
      // The stored copy may carry the issuer the SDK bound the client to; the secret is the config's.
      return stored?.client_id === options.clientId
        ? { ...stored, client_secret: options.clientSecret }
        : { client_id: options.clientId, client_secret: options.clientSecret };
    },
    async saveClientInformation(information) {
      // Only the binding is kept: never the secret, which stays in mcp.json where the user wrote it.
      const { client_secret: _secret, ...kept } = information as OAuthClientInformationMixed & {
        client_secret?: string;
      };
      await update(() => ({ clientInformation: kept }));
    },
    async tokens(): Promise<OAuthTokens | undefined> {
      return (await store.read()).tokens;
    },
    async saveTokens(tokens) {
      await update(() => ({ tokens }));
    },
    redirectToAuthorization() {
      throw mcpError(
        'MCP_AUTH_FAILED',
        'The client credentials in mcp.json were refused by the authorization server.',
      );
    },
    saveCodeVerifier() {},
    codeVerifier() {
      throw mcpError('MCP_AUTH_FAILED', 'A client-credentials sign-in has no authorization code.');
    },
    prepareTokenRequest(scope) {
      const params = new URLSearchParams({ grant_type: 'client_credentials' });
      const asked = scope ?? options.scope;
      if (asked) params.set('scope', asked);
      return params;
    },
    async invalidateCredentials(which) {
      if (which === 'all' || which === 'tokens') await update(() => ({ tokens: undefined }));
      if (which === 'all' || which === 'client') await update(() => ({ clientInformation: undefined }));
    },
  };
}
