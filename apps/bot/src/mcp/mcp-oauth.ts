import { join } from 'node:path';
import { createFileOAuthStore, type McpConnectOAuthOptions } from '@macstats/tools-mcp';
import type { AppConfig } from '../app-config.js';

/** `$MACSTATS_HOME/mcp-auth/<server>.json`: one server's registration and tokens, mode 0600. */
export function mcpAuthFile(config: Pick<AppConfig, 'home'>, server: string): string {
  // Encoded so that a server named "a/b" or ".." stays one file inside the folder.
  return join(config.home, 'mcp-auth', `${encodeURIComponent(server)}.json`);
}

/** Sign-in for MCP servers that require it: tokens per server under `MACSTATS_HOME`. */
export function mcpOAuthOptions(config: Pick<AppConfig, 'home'>): McpConnectOAuthOptions {
  return {
    store: (server) => createFileOAuthStore(mcpAuthFile(config, server)),
    signInHint: (server) => `run "macstats mcp login ${server}"`,
  };
}
