import type { OAuthClientProvider } from '@modelcontextprotocol/sdk/client/auth.js';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { SSEClientTransport } from '@modelcontextprotocol/sdk/client/sse.js';
import type { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { MCP_DEFAULTS } from './defaults.js';
import { listenForRedirect } from './loopback-redirect.js';
import { mcpError } from './mcp-errors.js';
import { isUnauthorized } from './oauth-failure.js';
import { createMcpOAuthProvider } from './oauth-provider.js';
import {
  createMemoryOAuthStore,
  type McpOAuthState,
  type McpOAuthStore,
  updateStore,
} from './oauth-store.js';
import { withoutBrowserFor } from './server-auth.js';
import type { McpUrlServer } from './server-spec.js';

/** Options of `signInMcpServer`. */
export interface McpSignInOptions {
  /** Where the registration and tokens of this server are kept. */
  store: McpOAuthStore;
  /** Called with the URL the user must open in a browser: print it, show it, or open it. */
  onAuthorizationUrl(url: URL): void | Promise<void>;
  /** Loopback port of the redirect; default 0 (any free port). */
  redirectPort?: number;
  /** Cancels the sign-in (e.g. Ctrl-C, or a deadline). */
  signal?: AbortSignal;
  /** How the client names itself to the server; default `'macstats-agent'`. */
  clientName?: string;
  /**
   * An HTTPS URL where this client's metadata document is published (OAuth Client ID Metadata
   * Document): used as the client id by servers that accept it, instead of registering. Default: none.
   */
  clientMetadataUrl?: string;
  /** What must succeed once signed in; default: the MCP handshake and `tools/list`. */
  probe?(client: Client): Promise<unknown>;
  /** Most authorizations in one sign-in (a server may ask again for more scope); default 3. */
  maxAuthorizations?: number;
}

/** How a sign-in ended. */
export interface McpSignInResult {
  /** `'signed-in'`, or `'not-needed'` when the server answered without asking for sign-in. */
  status: 'signed-in' | 'not-needed';
}

/**
 * Signs in to an MCP server that requires the MCP authorization flow: discovers its
 * authorization server, registers this client, hands the user an authorization URL (PKCE),
 * waits for the browser's redirect on a loopback port, exchanges the code for tokens and keeps
 * them in `store`. The flow's own state is kept apart from `store`, and the server's earlier
 * tokens are replaced only when this sign-in completes (the probe succeeds with the new ones):
 * a sign-in that is aborted or fails leaves them as they were. A server that asks for more scope
 * after the first authorization gets another round, up to `maxAuthorizations`.
 *
 * @throws MacstatsError `MCP_AUTH_FAILED` when the authorization server refuses, the redirect's
 *   state does not match, or the server still refuses after the allowed authorizations.
 *
 * @example
 * ```ts
 * await signInMcpServer({ url }, { store: createFileOAuthStore(file), onAuthorizationUrl: (u) => print(u) });
 * ```
 */
export async function signInMcpServer(
  server: McpUrlServer,
  options: McpSignInOptions,
): Promise<McpSignInResult> {
  const grant = server.oauth?.grant;
  if (grant === 'client_credentials' || grant === 'enterprise') return signInWithoutBrowser(server, options);
  const redirect = await listenForRedirect(options.redirectPort ?? 0);
  const aborted = new Promise<never>((_, reject) => {
    const fail = () => reject(options.signal?.reason ?? new Error('aborted'));
    if (options.signal?.aborted) fail();
    options.signal?.addEventListener('abort', fail, { once: true });
  });
  aborted.catch(() => {});
  try {
    // The flow under way (state, PKCE verifier, a new registration, the new tokens) is kept in a
    // store of its own: the working tokens stay as they are until this sign-in completes, so a
    // sign-in stopped halfway (Ctrl-C, a closed tab) leaves the server signed in as before.
    const flow = createMemoryOAuthStore(await flowSeed(options.store, redirect.url));
    const clientName = options.clientName ?? MCP_DEFAULTS.clientName;
    const most = options.maxAuthorizations ?? 3;
    let shown = 0;
    const provider = createMcpOAuthProvider({
      store: flow,
      redirectUrl: redirect.url,
      clientName,
      // The SDK asks for a URL at each refusal; past the allowed rounds nobody is shown one.
      onAuthorizationUrl: (url) => (shown++ < most ? options.onAuthorizationUrl(url) : undefined),
      ...(options.clientMetadataUrl ? { clientMetadataUrl: options.clientMetadataUrl } : {}),
      client: server.oauth,
    });
    const probe = options.probe ?? ((client: Client) => client.listTools());
    for (let round = 0; ; round++) {
      const transport = await transportFor(server, provider);
      if (await succeeds(transport, clientName, probe, options.signal)) {
        if (round === 0) return { status: 'not-needed' };
        await commit(options.store, await flow.read());
        return { status: 'signed-in' };
      }
      if (!provider.authorizationUrl) {
        throw mcpError('MCP_AUTH_FAILED', 'The MCP server refused the token it was given.');
      }
      if (round === most) {
        throw mcpError(
          'MCP_AUTH_FAILED',
          `The MCP server still asked for sign-in after ${most} authorizations; it may want a scope this account cannot grant.`,
        );
      }
      const { code, state } = await Promise.race([redirect.next(), aborted]);
      if (state !== (await provider.expectedState())) {
        throw mcpError(
          'MCP_AUTH_FAILED',
          'The sign-in redirect carried an unexpected state; start the sign-in again.',
        );
      }
      await Promise.race([transport.finishAuth(code), aborted]);
    }
  } finally {
    await redirect.close();
  }
}

/**
 * A service account (mcp.json's `"grant": "client_credentials"`) or enterprise-managed sign-in
 * (`"grant": "enterprise"`): no browser; a token is fetched with the client's id and its secret or
 * signed assertion, or for the user's ID token, and kept once the probe succeeds with it.
 */
async function signInWithoutBrowser(
  server: McpUrlServer,
  options: McpSignInOptions,
): Promise<McpSignInResult> {
  const clientName = options.clientName ?? MCP_DEFAULTS.clientName;
  const flow = createMemoryOAuthStore({});
  const provider = withoutBrowserFor(server.oauth, flow, clientName);
  if (!provider)
    throw mcpError('MCP_AUTH_FAILED', `A ${server.oauth?.grant} sign-in is missing its client settings.`);
  const probe = options.probe ?? ((client: Client) => client.listTools());
  if (!(await succeeds(await transportFor(server, provider), clientName, probe, options.signal)))
    throw mcpError(
      'MCP_AUTH_FAILED',
      `The MCP server refused the token ${server.oauth?.grant === 'enterprise' ? "the identity provider's grant" : 'its client credentials'} got.`,
    );
  await commit(options.store, await flow.read());
  return { status: 'signed-in' };
}

/**
 * What a new flow starts from: the stored registration (unless it was made for another loopback
 * port, which this redirect would be refused with), discovery and the scope refused calls
 * needed, never the working tokens.
 */
async function flowSeed(store: McpOAuthStore, redirectUrl: string): Promise<McpOAuthState> {
  const { clientInformation, discovery, wantedScope } = await store.read();
  const registered = (clientInformation as { redirect_uris?: string[] } | undefined)?.redirect_uris;
  const usable = clientInformation && (!registered || registered.includes(redirectUrl));
  return {
    ...(usable ? { clientInformation } : {}),
    ...(discovery ? { discovery } : {}),
    // What a refused call needed (a step-up): this sign-in asks for it too.
    ...(wantedScope ? { wantedScope } : {}),
  };
}

/** Stores a completed sign-in's registration, discovery and tokens in one write. */
async function commit(store: McpOAuthStore, done: McpOAuthState): Promise<void> {
  const { state: _state, codeVerifier: _verifier, ...signedIn } = done;
  const apply = (current: McpOAuthState): McpOAuthState => {
    const { state: _oldState, codeVerifier: _oldVerifier, ...kept } = current;
    return { ...kept, ...signedIn };
  };
  await updateStore(store, apply);
}

type AuthTransport = StreamableHTTPClientTransport | SSEClientTransport;

async function transportFor(server: McpUrlServer, provider: OAuthClientProvider): Promise<AuthTransport> {
  const url = new URL(server.url);
  const [{ SSEClientTransport }, { StreamableHTTPClientTransport }] = await Promise.all([
    import('@modelcontextprotocol/sdk/client/sse.js'),
    import('@modelcontextprotocol/sdk/client/streamableHttp.js'),
  ]);
  const options = {
    authProvider: provider,
    ...(server.headers ? { requestInit: { headers: server.headers } } : {}),
  };
  return server.transport === 'sse'
    ? new SSEClientTransport(url, options)
    : new StreamableHTTPClientTransport(url, options);
}

// True when the handshake and the probe succeed, false when the server asks for sign-in.
async function succeeds(
  transport: AuthTransport,
  clientName: string,
  probe: (client: Client) => Promise<unknown>,
  signal: AbortSignal | undefined,
): Promise<boolean> {
  const { Client } = await import('@modelcontextprotocol/sdk/client/index.js');
  const client = new Client({ name: clientName, version: MCP_DEFAULTS.clientVersion }, { capabilities: {} });
  try {
    await client.connect(transport, signal ? { signal } : {});
    await probe(client);
    return true;
  } catch (error) {
    if (isUnauthorized(error)) return false;
    throw error;
  } finally {
    await client.close().catch(() => {});
  }
}
