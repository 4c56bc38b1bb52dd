import type { Logger } from '@macstats/core';
import type { OAuthClientProvider } from '@modelcontextprotocol/sdk/client/auth.js';
import type { McpElicitationHandler } from './elicitation.js';
import type { McpOAuthStore } from './oauth-store.js';
import type { McpTransportKind } from './open-client.js';
import type { McpPins } from './pins.js';

/** What a connection reports through `onEvent`, for status lines and metrics. */
export type McpEvent =
  | { type: 'server-connect'; server: string; transport: McpTransportKind; tools: number; pid?: number }
  | { type: 'server-exit'; server: string; reason: string }
  | {
      type: 'server-fail';
      server: string;
      reason: string;
      retryInMs: number;
      /** True when the server wants the user to sign in (`macstats mcp login`) before it answers. */
      signIn?: boolean;
    }
  | { type: 'tools-change'; server: string; tools: number }
  | { type: 'tools-withheld'; server: string; tools: string[] }
  | { type: 'call-retry'; server: string; tool: string; reason: string };

/** Options of `connectMcp` and `connectMcpServers`. Defaults are in `MCP_DEFAULTS`. */
export interface McpConnectOptions {
  /** Name of the server in logs, events and tool names; default `'mcp'` (`connectMcp`). */
  name?: string;
  /** Where the package writes what it does; default `silentLogger`. */
  logger?: Logger;
  /** Called on connects, exits, failures, tool-list changes and retries. */
  onEvent?: (event: McpEvent) => void;
  /** Longest wait for one tool call, retry included; default 30 000 ms. */
  callTimeoutMs?: number;
  /** Longest wait to start a server, shake hands and list its tools; default 30 000 ms. */
  connectTimeoutMs?: number;
  /** Delay before the second restart of a failing server, doubled each time; default 1 000 ms. */
  restartBackoffMs?: number;
  /** Longest delay between restarts of a failing server; default 60 000 ms. */
  maxRestartBackoffMs?: number;
  /** Longest result text handed to the model; default 20 000 characters. */
  maxResultChars?: number;
  /** Longest tool description in the model's tool list; default 160 characters. */
  maxDescriptionChars?: number;
  /** Clock for the restart backoff, in milliseconds; default `Date.now`. Tests inject one. */
  now?: () => number;
  /** Name the client gives servers; default `'macstats-agent'`. */
  clientName?: string;
  /** Version the client gives servers; default `'0.1.0'`. */
  clientVersion?: string;
  /**
   * The user trusts this server: its tool descriptions and results are not outside content, and a
   * tool it annotates read-only and closed-world sends nothing. Default `false`.
   */
  trust?: boolean;
  /**
   * Where accepted tool definitions are pinned (`loadMcpPins(file)`): a server's tools are pinned
   * at first use, and a tool whose definition changes later is not offered until pinned again.
   * Default: no pinning.
   */
  pins?: McpPins;
  /**
   * Sign-in for servers reached over HTTP that require the MCP authorization flow (OAuth 2.1).
   * Default: none, and such a server fails with `MCP_AUTH_REQUIRED`.
   */
  oauth?: McpConnectOAuthOptions;
  /**
   * Answers servers' questions to the user in the middle of a call (MCP elicitation): route them
   * to an approval surface, or decline them with `createDecliningElicitation(reason)` where
   * nobody can answer. Default: none, and the client does not offer elicitation to servers.
   */
  elicitation?: McpElicitationHandler;
}

/** Where each server's sign-in is stored and what to tell the user when one is needed. */
export interface McpConnectOAuthOptions {
  /** The store of a server's registration and tokens, by server name (e.g. a 0600 file per server). */
  store(server: string): McpOAuthStore;
  /**
   * Another OAuth client provider for a server, e.g. the SDK's `ClientCredentialsProvider` for a
   * machine-to-machine grant; `undefined` keeps the browser sign-in over `store`. Default: none.
   */
  provider?(server: string): OAuthClientProvider | undefined;
  /** What the user should do to sign in, e.g. `run "macstats mcp login github"`. */
  signInHint?(server: string): string;
}
