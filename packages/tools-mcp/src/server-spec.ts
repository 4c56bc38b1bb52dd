import { basename } from 'node:path';
import { maskUrl } from '@macstats/core/internal';
import { mcpError } from './mcp-errors.js';

/** A local server in the `MCP_SERVER_STDIO` form: `command|arg1|arg2` (no shell, no quoting). */
export interface McpStdioServer {
  /** `command|arg1|arg2`, e.g. `npx|-y|@openbnb/mcp-server-airbnb`. */
  stdio: string;
  /** Extra environment for the child, on top of a few safe variables (PATH, HOME, …). */
  env?: Record<string, string>;
  /** Working directory of the child; default: the host's. */
  cwd?: string;
}

/** A local server as `mcp.json` spells it: a command and its arguments. */
export interface McpCommandServer {
  command: string;
  args?: readonly string[];
  /** Extra environment for the child, on top of a few safe variables (PATH, HOME, …). */
  env?: Record<string, string>;
  /** Working directory of the child; default: the host's. */
  cwd?: string;
}

/** A remote server reached over HTTP. */
export interface McpUrlServer {
  /** The endpoint: Streamable HTTP (`…/mcp`) or an old SSE server (`…/sse`). */
  url: string;
  /**
   * `'auto'` (default) tries Streamable HTTP first and falls back to SSE, as the MCP
   * specification advises for old servers.
   */
  transport?: 'auto' | 'streamable-http' | 'sse';
  /** Headers sent with every request, e.g. `Authorization`. Never logged. */
  headers?: Record<string, string>;
  /** How this client signs in to the server, when not by dynamic registration (mcp.json's `"oauth"`). */
  oauth?: McpServerOAuth;
}

/**
 * How macstats signs in to one server (`"oauth"` in mcp.json). Without it: the authorization
 * code flow with PKCE, registering dynamically. Secrets here are never logged.
 */
export interface McpServerOAuth {
  /** A client registered ahead of time with the authorization server: no dynamic registration. */
  clientId?: string;
  /** That client's secret (a confidential client); sent as the authorization server asks. */
  clientSecret?: string;
  /**
   * With `grant: 'client_credentials'`, instead of a secret: a PEM file holding the client's
   * private key (PKCS#8, RSA or EC), which signs each token request (`private_key_jwt`, RFC 7523).
   * The file is read at each token request; the signing algorithm follows the key.
   */
  privateKeyFile?: string;
  /**
   * An HTTPS URL where this client's metadata document is published (OAuth Client ID Metadata
   * Document), used as the client id by authorization servers that accept one.
   */
  clientMetadataUrl?: string;
  /**
   * `client_credentials`: no user and no browser; the client's id and secret (or key) get the
   * token (a service account). `enterprise`: enterprise-managed sign-in (cross-app access,
   * SEP-990), the user's ID token from the company's identity provider exchanged for the token.
   * Default `authorization_code` (the user signs in in a browser).
   */
  grant?: 'authorization_code' | 'client_credentials' | 'enterprise';
  /** Scope to ask for besides what the server names. */
  scope?: string;
  /** With `grant: 'enterprise'`: the token endpoint of the identity provider the user signed in to. */
  idpTokenEndpoint?: string;
  /** With `grant: 'enterprise'`: this client's id at the identity provider, when it wants one. */
  idpClientId?: string;
  /** With `grant: 'enterprise'`: that client's secret at the identity provider, when it has one. */
  idpClientSecret?: string;
  /**
   * With `grant: 'enterprise'`: a file holding the user's ID token from the identity provider
   * (kept fresh by the company's sign-in tool), read at each exchange.
   */
  idTokenFile?: string;
}

/** Where an MCP server is: a child process (stdio) or a URL. */
export type McpServerSpec = McpStdioServer | McpCommandServer | McpUrlServer;

/** A command line to spawn: what `McpStdioServer` and `McpCommandServer` come down to. */
export interface McpCommandLine {
  command: string;
  args: string[];
}

/**
 * Splits the `MCP_SERVER_STDIO` form `command|arg1|arg2` into a command and its arguments.
 * Spaces around each `|` are dropped.
 *
 * @throws MacstatsError `MCP_CONFIG_INVALID` when there is no command.
 */
export function parseStdioCommand(stdio: string): McpCommandLine {
  const [command = '', ...args] = stdio.split('|').map((part) => part.trim());
  if (command === '') {
    throw mcpError(
      'MCP_CONFIG_INVALID',
      'An MCP stdio server must be written "command|arg1|arg2"; the command is empty.',
    );
  }
  return { command, args };
}

/** True for a server reached over HTTP. */
export function isUrlServer(server: McpServerSpec): server is McpUrlServer {
  return 'url' in server && typeof server.url === 'string';
}

/** The command line of a local server. */
export function commandLineOf(server: McpStdioServer | McpCommandServer): McpCommandLine {
  if ('stdio' in server) return parseStdioCommand(server.stdio);
  if (server.command.trim() === '') {
    throw mcpError('MCP_CONFIG_INVALID', 'An MCP stdio server needs a command; it is empty.');
  }
  return { command: server.command, args: [...(server.args ?? [])] };
}

/**
 * How a server is named in logs: a URL as core's `maskUrl` shows it (scheme and host), or the
 * program of a command. Arguments,
 * paths, queries and headers are left out because they often carry keys.
 */
export function describeServer(server: McpServerSpec): string {
  if (isUrlServer(server)) return maskUrl(server.url);
  try {
    return `stdio ${basename(commandLineOf(server).command)}`;
  } catch {
    return 'stdio (no command)';
  }
}

/**
 * Checks a server spec before anything is started: a stdio form needs a command, a URL must be
 * http or https.
 *
 * @throws MacstatsError `MCP_CONFIG_INVALID` with one sentence saying what is wrong.
 */
export function validateServer(server: McpServerSpec): void {
  if (!isUrlServer(server)) {
    commandLineOf(server);
    return;
  }
  let protocol = '';
  try {
    protocol = new URL(server.url).protocol;
  } catch {
    // Reported below, without echoing a URL that may carry a key.
  }
  if (protocol !== 'http:' && protocol !== 'https:') {
    throw mcpError('MCP_CONFIG_INVALID', 'An MCP server URL must start with http:// or https://.');
  }
}
