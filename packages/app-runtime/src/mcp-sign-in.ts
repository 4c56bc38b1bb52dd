import { join } from 'node:path';
import { redactUrl } from '@macstats/core/internal';
import type { McpConnectOAuthOptions } from '@macstats/tools-mcp';
import type { ToolSettings } from './configured-tools.js';
import { configuredMcpServer, mcpConfigSources } from './mcp-config.js';

/** `<home>/mcp-auth/<server>.json`: one server's registration and tokens, mode 0600. */
export function mcpAuthFile(home: string, server: string): string {
  // Encoded so that a server named "a/b" or ".." stays one file inside the folder.
  return join(home, 'mcp-auth', `${encodeURIComponent(server)}.json`);
}

/**
 * Sign-in for MCP servers that require it: tokens per server under the app's home. Loads
 * tools-mcp (the MCP SDK) itself, so a configuration without MCP servers never pays for it.
 */
export async function mcpOAuthOptions(home: string): Promise<McpConnectOAuthOptions> {
  const { createFileOAuthStore } = await import('@macstats/tools-mcp');
  return {
    store: (server) => createFileOAuthStore(mcpAuthFile(home, server)),
    signInHint: (server) => `run "macstats mcp login ${server}"`,
  };
}

/** Options of {@link signInConfiguredMcpServer}. */
export interface McpSignInOptions {
  /** Show the user the URL to open in a browser (printed, or handed to the dashboard's page). */
  onAuthorizationUrl(url: URL): void | Promise<void>;
  /** Ends the wait for the browser. */
  signal?: AbortSignal | undefined;
  /** Loopback port of the redirect; default 0, a free one. */
  redirectPort?: number | undefined;
}

/**
 * How a sign-in ended: `signed-in` (tokens kept in `file`), `not-needed`, `refused` (no such
 * server, or one that runs locally) or `failed` (the flow failed; the reason without the URL's
 * secrets). `problems` are the config's bad entries.
 */
export type McpSignInOutcome = { problems: string[] } & (
  | { status: 'signed-in' | 'not-needed'; file: string }
  | { status: 'refused' | 'failed'; reason: string }
);

/**
 * The MCP authorization flow for a configured remote server, with the user in a browser (what
 * `macstats mcp login <server>` and the dashboard's Sign in do): the tokens go to
 * `mcpAuthFile(home, server)`. Rejects only when `signal` aborts.
 */
export async function signInConfiguredMcpServer(
  settings: ToolSettings,
  server: string,
  options: McpSignInOptions,
): Promise<McpSignInOutcome> {
  const { createFileOAuthStore, signInMcpServer } = await import('@macstats/tools-mcp');
  const found = await configuredMcpServer(settings, server);
  if (!('named' in found)) return found;
  const { problems, named } = found;
  if (!('url' in named.server)) {
    return {
      problems,
      status: 'refused',
      reason: `MCP server "${server}" runs locally (stdio); only remote servers sign in.`,
    };
  }
  const file = mcpAuthFile(settings.home, server);
  try {
    const result = await signInMcpServer(named.server, {
      store: createFileOAuthStore(file),
      onAuthorizationUrl: options.onAuthorizationUrl,
      ...(options.signal ? { signal: options.signal } : {}),
      ...(options.redirectPort !== undefined ? { redirectPort: options.redirectPort } : {}),
    });
    return { problems, status: result.status, file };
  } catch (error) {
    if (options.signal?.aborted) throw error;
    const message = error instanceof Error ? error.message : String(error);
    const reason = `${redactUrl(message, named.server.url).replace(/\.$/, '')}.`;
    return { problems, status: 'failed', reason };
  }
}

/** What the dashboard needs to offer sign-in: the remote servers, and the flow. */
export interface McpSignInSurface {
  /** Names of the configured servers reached over HTTP (only these sign in). */
  remote: readonly string[];
  signIn(server: string, options: McpSignInOptions): Promise<McpSignInOutcome>;
}

/** {@link McpSignInSurface} over the app's settings. */
export async function mcpSignInSurface(settings: ToolSettings): Promise<McpSignInSurface> {
  const { loadMcpServers } = await import('@macstats/tools-mcp');
  const { servers } = await loadMcpServers(mcpConfigSources(settings));
  return {
    remote: servers.filter((entry) => 'url' in entry.server).map((entry) => entry.name),
    signIn: (server, options) => signInConfiguredMcpServer(settings, server, options),
  };
}
