import { join } from 'node:path';
import type { McpConnectOAuthOptions } from '@macstats/tools-mcp';

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
