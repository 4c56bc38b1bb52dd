import { randomBytes } from 'node:crypto';
import type { OAuthClientProvider, OAuthDiscoveryState } from '@modelcontextprotocol/sdk/client/auth.js';
import type {
  OAuthClientInformationMixed,
  OAuthClientMetadata,
  OAuthTokens,
} from '@modelcontextprotocol/sdk/shared/auth.js';
import type { McpOAuthState, McpOAuthStore } from './oauth-store.js';
import type { McpServerOAuth } from './server-spec.js';

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
  /**
   * How the user configured this client (mcp.json's `"oauth"`): a client registered ahead of
   * time (`clientId`, `clientSecret`) is used instead of registering; `scope` is asked for too.
   */
  client?: McpServerOAuth | undefined;
}

/**
 * Why a connection cannot go on without the user: no sign-in yet, one that expired, or a call
 * that needs more scope than the sign-in granted (`'scope'`).
 */
export type McpSignInReason = 'needed' | 'expired' | 'scope';

/** The SDK's `OAuthClientProvider` over a `McpOAuthStore`, plus what a sign-in needs to know. */
export interface McpOAuthProvider extends OAuthClientProvider {
  /** The URL the user must open, once the flow has asked for one. */
  readonly authorizationUrl: URL | undefined;
  /** `'expired'` when tokens existed and could not be refreshed; `'needed'` otherwise. */
  readonly signInReason: McpSignInReason | undefined;
  /** The OAuth `state` sent with the authorization URL, to check on the redirect. */
  expectedState(): Promise<string | undefined>;
  /**
   * Records that the server refused a call for want of `scope` (403 `insufficient_scope`): kept
   * in the store as `wantedScope`, so that the next sign-in asks for it.
   */
  askedForScope(scope: string): Promise<void>;
  /** The scopes a refused call needs that the stored tokens were not granted, once one was refused. */
  readonly missingScope: string | undefined;
}

/** The scopes of both lists, each once, in order. */
export function joinScopes(...lists: (string | undefined)[]): string {
  return [...new Set(lists.flatMap((list) => (list ?? '').split(' ').filter(Boolean)))].join(' ');
}

const fallbackRedirect = 'http://127.0.0.1/callback';

/** The stored fields each scope of the SDK's `invalidateCredentials` removes. */
const invalidated: Record<
  'all' | 'client' | 'tokens' | 'verifier' | 'discovery',
  readonly (keyof McpOAuthState)[]
> = {
  all: ['clientInformation', 'tokens', 'codeVerifier', 'state', 'discovery'],
  client: ['clientInformation'],
  tokens: ['tokens'],
  verifier: ['codeVerifier'],
  discovery: ['discovery'],
};

/**
 * An OAuth client provider for the MCP authorization flow (OAuth 2.1 with PKCE, discovery,
 * dynamic client registration, refresh), keeping its state in `store`. Give it to a Streamable
 * HTTP or SSE transport as `authProvider`.
 *
 * Without `onAuthorizationUrl` the provider belongs to a connection nobody signs in through:
 * the `state`, PKCE verifier, registration and discovery of a flow it starts stay in memory, so
 * its attempts while the user signs in elsewhere (`macstats mcp login`, the dashboard) never
 * overwrite that sign-in's. A refreshed token is stored either way, and invalidating removes a
 * stored value only while it is still the one this provider used.
 *
 * @example
 * ```ts
 * const provider = createMcpOAuthProvider({ store: createFileOAuthStore(file) });
 * const transport = new StreamableHTTPClientTransport(url, { authProvider: provider });
 * ```
 */
export function createMcpOAuthProvider(options: McpOAuthProviderOptions): McpOAuthProvider {
  const { store } = options;
  const signsIn = options.onAuthorizationUrl !== undefined;
  let cached: McpOAuthState | undefined;
  // A connection's own flow (see above): never written to the store.
  const flow: Pick<McpOAuthState, 'state' | 'codeVerifier' | 'clientInformation' | 'discovery'> = {};
  let authorizationUrl: URL | undefined;
  const wait = createSignInWait();
  let hadTokens = false;

  const load = async () => {
    cached ??= await store.read();
    return cached;
  };
  const writes = serialUpdates(store, (state) => {
    cached = state;
  });
  const update = writes.update;
  const keep = async <K extends keyof typeof flow>(key: K, value: McpOAuthState[K]) => {
    if (signsIn) await update((current) => ({ ...current, [key]: value }));
    else flow[key] = value;
  };
  const redirectUrl = () => {
    if (options.redirectUrl !== undefined) return String(options.redirectUrl);
    const registered = (flow.clientInformation ?? cached?.clientInformation) as
      | { redirect_uris?: string[] }
      | undefined;
    return registered?.redirect_uris?.[0] ?? fallbackRedirect;
  };

  const configured = options.client;
  const metadataUrl = options.clientMetadataUrl ?? configured?.clientMetadataUrl;
  const preRegistered = (stored: OAuthClientInformationMixed | undefined) =>
    configuredClient(configured, stored);
  return {
    ...(metadataUrl ? { clientMetadataUrl: metadataUrl } : {}),
    get redirectUrl() {
      return redirectUrl();
    },
    get clientMetadata(): OAuthClientMetadata {
      return {
        client_name: options.clientName ?? 'macstats-agent',
        redirect_uris: [redirectUrl()],
        grant_types: ['authorization_code', 'refresh_token'],
        response_types: ['code'],
        token_endpoint_auth_method: configured?.clientSecret ? 'client_secret_basic' : 'none',
        ...(configured?.scope ? { scope: configured.scope } : {}),
      };
    },
    get authorizationUrl() {
      return authorizationUrl;
    },
    get signInReason() {
      return wait.reason;
    },
    get missingScope() {
      return wait.missingScope;
    },
    async askedForScope(scope) {
      wait.forScope(notGranted(cached?.tokens, scope) || scope);
      // Not a flow's state but a fact about the server: every sign-in from now on asks for it.
      await update((current) => ({ ...current, wantedScope: joinScopes(current.wantedScope, scope) }));
    },
    async state() {
      const state = randomBytes(16).toString('base64url');
      await keep('state', state);
      return state;
    },
    async expectedState() {
      return flow.state ?? (await load()).state;
    },
    async clientInformation(): Promise<OAuthClientInformationMixed | undefined> {
      return preRegistered(flow.clientInformation ?? (await load()).clientInformation);
    },
    async saveClientInformation(clientInformation) {
      // A configured secret stays in mcp.json where the user wrote it, never in the sign-in file.
      const { client_secret: _secret, ...rest } = clientInformation as OAuthClientInformationMixed & {
        client_secret?: string;
      };
      await keep('clientInformation', configured?.clientSecret ? rest : clientInformation);
    },
    async tokens(): Promise<OAuthTokens | undefined> {
      // Without tokens, or while the user is wanted (no sign-in yet, a refused refresh, a call
      // that needs more scope), read the store again: a sign-in elsewhere (`macstats mcp login`,
      // the dashboard's) may have stored new ones since, and the next attempt then uses them
      // rather than the ones the server refused.
      if (!cached?.tokens || wait.reason !== undefined) {
        await writes.settled();
        const before = cached?.tokens;
        cached = await store.read();
        if (cached.tokens && JSON.stringify(cached.tokens) !== JSON.stringify(before))
          wait.tokensArrived(cached.tokens);
      }
      const tokens = cached.tokens;
      if (tokens) hadTokens = true;
      return tokens;
    },
    async saveTokens(tokens) {
      authorizationUrl = undefined;
      wait.tokensArrived(tokens);
      delete flow.state;
      delete flow.codeVerifier;
      // A sign-in is over once it has tokens; a connection's refresh leaves a sign-in's flow be.
      await update((current) => {
        if (!signsIn) return { ...current, tokens };
        const { codeVerifier: _verifier, state: _state, ...rest } = current;
        return { ...rest, tokens };
      });
    },
    async redirectToAuthorization(url) {
      // A sign-in asks for what a refused call needed besides what the server names now.
      const wanted = joinScopes((await load()).wantedScope, configured?.scope);
      if (wanted)
        url.searchParams.set('scope', joinScopes(url.searchParams.get('scope') ?? undefined, wanted));
      authorizationUrl = url;
      // The URL is only worth printing where someone will open it; a connection just records it.
      wait.forSignIn(hadTokens ? 'expired' : 'needed');
      await options.onAuthorizationUrl?.(url);
    },
    async saveCodeVerifier(codeVerifier) {
      await keep('codeVerifier', codeVerifier);
    },
    async codeVerifier() {
      const verifier = flow.codeVerifier ?? (await load()).codeVerifier;
      if (!verifier)
        throw new Error('No sign-in is under way for this MCP server (no PKCE code verifier is stored).');
      return verifier;
    },
    async saveDiscoveryState(discovery: OAuthDiscoveryState) {
      await keep('discovery', discovery);
    },
    async discoveryState() {
      return flow.discovery ?? (await load()).discovery;
    },
    async invalidateCredentials(scope) {
      const mine = cached;
      const keys = invalidated[scope];
      for (const key of keys) if (key !== 'tokens' && key !== 'wantedScope') delete flow[key];
      await update((current) => {
        const next = { ...current };
        // What someone else stored since this provider read it (a new sign-in) stays.
        for (const key of keys)
          if (JSON.stringify(next[key]) === JSON.stringify(mine?.[key])) delete next[key];
        return next;
      });
    },
  };
}

/** Why a provider waits for the user, if it does, and what scope a refused call missed. */
function createSignInWait() {
  let reason: McpSignInReason | undefined;
  let missingScope: string | undefined;
  return {
    get reason() {
      return reason;
    },
    get missingScope() {
      return missingScope;
    },
    forScope(missing: string) {
      reason = 'scope';
      missingScope = missing;
    },
    /** A step-up still names the scope it wants; otherwise the sign-in is needed or expired. */
    forSignIn(why: 'needed' | 'expired') {
      if (reason !== 'scope') reason = why;
    },
    /** New tokens end the wait; a step-up's only once they cover what the refused call needed. */
    tokensArrived(tokens: OAuthTokens) {
      if (reason === 'scope' && notGranted(tokens, missingScope) !== '') return;
      reason = undefined;
      missingScope = undefined;
    },
  };
}

/**
 * The store's writes, one after another so two saves in a row never lose each other's fields,
 * each starting from the stored state: another sign-in of this server (`macstats mcp login`, the
 * dashboard's) may have stored tokens since, which a write from a stale copy would drop.
 */
function serialUpdates(store: McpOAuthStore, saved: (state: McpOAuthState) => void) {
  let queue: Promise<unknown> = Promise.resolve();
  const update = (change: (state: McpOAuthState) => McpOAuthState) => {
    const next = queue.then(async () => {
      const apply = (state: McpOAuthState) => {
        const changed = change(state);
        saved(changed);
        return changed;
      };
      if (store.update) await store.update(apply);
      else await store.write(apply(await store.read()));
    });
    queue = next.catch(() => {});
    return next;
  };
  return { update, settled: () => queue };
}

/**
 * A client registered ahead of time: what is stored is used only while it is that client (the
 * store may hold the issuer the SDK bound it to), else the configured one as written.
 */
function configuredClient(
  configured: McpServerOAuth | undefined,
  stored: OAuthClientInformationMixed | undefined,
): OAuthClientInformationMixed | undefined {
  if (configured?.clientId === undefined) return stored;
  const secret = configured.clientSecret ? { client_secret: configured.clientSecret } : {};
  return stored?.client_id === configured.clientId
    ? { ...stored, ...secret }
    : { client_id: configured.clientId, ...secret };
}

/** The scopes of `scope` the tokens were not granted, space-separated (`''` when all were). */
function notGranted(tokens: OAuthTokens | undefined, scope: string | undefined): string {
  const granted = new Set((tokens?.scope ?? '').split(' '));
  return (scope ?? '')
    .split(' ')
    .filter((one) => one && !granted.has(one))
    .join(' ');
}
