import { join } from 'node:path';
import type { McpNamedServer } from '@macstats/tools-mcp';
import type { ToolSettings } from './configured-tools.js';

/** `<home>/mcp-pins.json`: the MCP tool definitions the user approved, pinned at first use. */
export function mcpPinsFile(home: string): string {
  return join(home, 'mcp-pins.json');
}

/** Where the MCP servers are configured: `<home>/mcp.json` and the two environment settings. */
export function mcpConfigSources(settings: ToolSettings): {
  file: string;
  environment: { MCP_SERVER_STDIO: string | undefined; MCP_SERVER_URL: string | undefined };
} {
  return {
    file: join(settings.home, 'mcp.json'),
    environment: {
      MCP_SERVER_STDIO: settings.setting('MCP_SERVER_STDIO'),
      MCP_SERVER_URL: settings.setting('MCP_SERVER_URL'),
    },
  };
}

/**
 * The configured MCP server named `server`, with the config's bad entries (`problems`), or the
 * sentence that there is none. Loads tools-mcp itself, only when called.
 */
export async function configuredMcpServer(
  settings: ToolSettings,
  server: string,
): Promise<{ problems: string[] } & ({ named: McpNamedServer } | { status: 'refused'; reason: string })> {
  const { loadMcpServers } = await import('@macstats/tools-mcp');
  const { servers, errors: problems } = await loadMcpServers(mcpConfigSources(settings));
  const named = servers.find((entry) => entry.name === server);
  if (named) return { problems, named };
  const known = servers.map((entry) => entry.name).join(', ') || 'none';
  return {
    problems,
    status: 'refused',
    reason: `there is no MCP server "${server}" (configured: ${known}).`,
  };
}
