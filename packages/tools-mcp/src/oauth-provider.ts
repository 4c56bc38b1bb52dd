import { randomBytes } from 'node:crypto';
import type { OAuthClientProvider, OAuthDiscoveryState } from '@modelcontextprotocol/sdk/client/auth.js';
import type {
  OAuthClientInformationMixed,
  OAuthClientMetadata,
  OAuthTokens,
} from '@modelcontextprotocol/sdk/shared/auth.js';
import type { McpOAuthState, McpOAuthStore } from './oauth-store.js';

/** Options of `createMcpOAuthProvider`. */
export interface McpOAuthProviderOptions {
  /** Where the registration, tokens and PKCE verifier of this server are kept. */
  store: McpOAuthStore;
  /**
   * The loopback redirect URL of a sign-in under way (`http://127.0.0.1:<port>/callback`).
   * Default: the one the client registered with, else `http://127.0.0.1/callback`; a connection
   * that is not signing in never follows it.
   */
  redirectUrl?: string | URL;
  /** How the client names itself when it registers; default `'macstats-agent'`. */
  clientName?: string;
  /**
   * An HTTPS URL where this client's metadata document is published (OAuth Client ID Metadata
   * Document), used as the client id where the server accepts it. Default: none (registration).
   */
  clientMetadataUrl?: string;
  /** Called with the authorization URL the user must open in a browser. */
  onAuthorizationUrl?: (url: URL) => void | Promise<void>;
}

/** Why a connection cannot go on without the user. */
export type McpSignInReason = 'needed' | 'expired';

/** The SDK's `OAuthClientProvider` over a `McpOAuthStore`, plus what a sign-in needs to know. */
export interface McpOAuthProvider extends OAuthClientProvider {
  /** The URL the user must open, once the flow has asked for one. */
  readonly authorizationUrl: URL | undefined;
  /** `'expired'` when tokens existed and could not be refreshed; `'needed'` otherwise. */
  readonly signInReason: McpSignInReason | undefined;
  /** The OAuth `state` sent with the authorization URL, to check on the redirect. */
  expectedState(): Promise<string | undefined>;
}

const fallbackRedirect = 'http://127.0.0.1/callback';

/**
 * An OAuth client provider for the MCP authorization flow (OAuth 2.1 with PKCE, discovery,
 * dynamic client registration, refresh), keeping its state in `store`. Give it to a Streamable
 * HTTP or SSE transport as `authProvider`.
 *
 * @example
 * ```ts
 * const provider = createMcpOAuthProvider({ store: createFileOAuthStore(file) });
 * const transport = new StreamableHTTPClientTransport(url, { authProvider: provider });
 * ```
 */
export function createMcpOAuthProvider(options: McpOAuthProviderOptions): McpOAuthProvider {
  const { store } = options;
  let cached: McpOAuthState | undefined;
  let queue: Promise<unknown> = Promise.resolve();
  let authorizationUrl: URL | undefined;
  let signInReason: McpSignInReason | undefined;
  let hadTokens = false;

  const load = async () => {
    cached ??= await store.read();
    return cached;
  };
  // Writes run one after another so two saves in a row never lose each other's fields, and each
  // starts from the stored state: another sign-in of this server (`macstats mcp login`, the
  // dashboard's) may have stored tokens since, which a write from a stale copy would drop.
  const update = (change: (state: McpOAuthState) => McpOAuthState) => {
    const next = queue.then(async () => {
      cached = change(await store.read());
      await store.write(cached);
    });
    queue = next.catch(() => {});
    return next;
  };
  const redirectUrl = () => {
    if (options.redirectUrl !== undefined) return String(options.redirectUrl);
    const registered = cached?.clientInformation as { redirect_uris?: string[] } | undefined;
    return registered?.redirect_uris?.[0] ?? fallbackRedirect;
  };

  return {
    ...(options.clientMetadataUrl ? { clientMetadataUrl: options.clientMetadataUrl } : {}),
    get redirectUrl() {
      return redirectUrl();
    },
    get clientMetadata(): OAuthClientMetadata {
      return {
        client_name: options.clientName ?? 'macstats-agent',
        redirect_uris: [redirectUrl()],
        grant_types: ['authorization_code', 'refresh_token'],
        response_types: ['code'],
        token_endpoint_auth_method: 'none',
      };
    },
    get authorizationUrl() {
      return authorizationUrl;
    },
    get signInReason() {
      return signInReason;
    },
    async state() {
      const state = randomBytes(16).toString('base64url');
      await update((current) => ({ ...current, state }));
      return state;
    },
    async expectedState() {
      return (await load()).state;
    },
    async clientInformation(): Promise<OAuthClientInformationMixed | undefined> {
      return (await load()).clientInformation;
    },
    async saveClientInformation(clientInformation) {
      await update((current) => ({ ...current, clientInformation }));
    },
    async tokens(): Promise<OAuthTokens | undefined> {
      // Without tokens, read the store again: a sign-in elsewhere (`macstats mcp login`, the
      // dashboard's) may have stored some since, and the next attempt then uses them.
      if (!cached?.tokens) {
        await queue;
        cached = await store.read();
      }
      const tokens = cached.tokens;
      if (tokens) hadTokens = true;
      return tokens;
    },
    async saveTokens(tokens) {
      authorizationUrl = undefined;
      signInReason = undefined;
      await update(({ codeVerifier: _verifier, state: _state, ...current }) => ({ ...current, tokens }));
    },
    async redirectToAuthorization(url) {
      authorizationUrl = url;
      // The URL is only worth printing where someone will open it; a connection just records it.
      signInReason = hadTokens ? 'expired' : 'needed';
      await options.onAuthorizationUrl?.(url);
    },
    async saveCodeVerifier(codeVerifier) {
      await update((current) => ({ ...current, codeVerifier }));
    },
    async codeVerifier() {
      const verifier = (await load()).codeVerifier;
      if (!verifier)
        throw new Error('No sign-in is under way for this MCP server (no PKCE code verifier is stored).');
      return verifier;
    },
    async saveDiscoveryState(discovery: OAuthDiscoveryState) {
      await update((current) => ({ ...current, discovery }));
    },
    async discoveryState() {
      return (await load()).discovery;
    },
    async invalidateCredentials(scope) {
      await update((current) => {
        if (scope === 'all') return {};
        const next = { ...current };
        if (scope === 'client') delete next.clientInformation;
        if (scope === 'tokens') delete next.tokens;
        if (scope === 'verifier') delete next.codeVerifier;
        if (scope === 'discovery') delete next.discovery;
        return next;
      });
    },
  };
}
