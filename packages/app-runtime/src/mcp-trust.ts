import type { Logger } from '@macstats/core';
import type { McpPins, McpToolInfo } from '@macstats/tools-mcp';
import type { ToolSettings } from './configured-tools.js';
import { configuredMcpServer, mcpPinsFile } from './mcp-config.js';
import { mcpOAuthOptions } from './mcp-sign-in.js';

/**
 * How a trust ended: `pinned` (every tool definition the server lists now is approved; `changed`
 * names those withheld until now because their definition changed since the last approval),
 * `refused` (no such server) or `failed` (the pins file cannot be read, or the server did not
 * answer; nothing was pinned). `problems` are the config's bad entries.
 */
export type McpTrustOutcome = { problems: string[] } & (
  | { status: 'pinned'; tools: readonly McpToolInfo[]; changed: string[] }
  | { status: 'refused' | 'failed'; reason: string }
);

/**
 * Pins a configured server's tool definitions as they are now (what `macstats mcp trust <server>`
 * does; the dashboard's Trust pins through its running connection), so tools withheld because
 * their definition changed since first use are offered again. Loads tools-mcp (the MCP SDK)
 * itself, only when called.
 */
export async function trustConfiguredMcpServer(
  settings: ToolSettings,
  server: string,
  options: { logger?: Logger | undefined } = {},
): Promise<McpTrustOutcome> {
  const { connectMcpServers, loadMcpPins } = await import('@macstats/tools-mcp');
  const found = await configuredMcpServer(settings, server);
  if (!('named' in found)) return found;
  const { problems, named } = found;
  let pins: McpPins;
  try {
    pins = await loadMcpPins(mcpPinsFile(settings.home));
  } catch (error) {
    // Never pinned over: a reset file would drop the other servers' pins, and their changed tools
    // would then count as new. The message names the file and what is wrong with it.
    const message = (error instanceof Error ? error.message : String(error)).replace(/\.$/, '');
    return {
      problems,
      status: 'failed',
      reason: `${message}; nothing was pinned (fix or delete the file, then trust again).`,
    };
  }
  const set = await connectMcpServers([named], {
    ...(options.logger ? { logger: options.logger } : {}),
    pins,
    oauth: await mcpOAuthOptions(settings.home),
  });
  try {
    const connection = set.connections.get(server);
    if (connection?.status !== 'connected')
      return {
        problems,
        status: 'failed',
        reason: `MCP server "${server}" is not answering; nothing was pinned.`,
      };
    const changed = [...connection.withheld];
    return { problems, status: 'pinned', tools: await connection.pinTools(), changed };
  } finally {
    await set.close();
  }
}
