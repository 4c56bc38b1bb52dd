import type { ToolSettings } from './configured-tools.js';
import { mcpConfigSources, mcpPinsFile } from './mcp-config.js';
import { mcpOAuthOptions } from './mcp-sign-in.js';

/**
 * One configured server as a check sees it: `listed` with the tools it offers (`withheld`: those
 * left out because their definition changed since it was approved), or `failed` with the reason
 * (`signIn`: the server wants a sign-in).
 */
export type McpServerCheck =
  | { name: string; status: 'listed'; tools: string[]; withheld: string[] }
  | { name: string; status: 'failed'; reason: string; signIn: boolean };

/**
 * Connects to each configured MCP server and lists its tools, as the agent would offer them
 * (what `macstats doctor` reports): the pins are read as the agent reads them and never written,
 * since a look is not a first use. `problems` are the config's bad entries; no server configured
 * gives no `servers` and connects nothing. Loads tools-mcp (the MCP SDK) itself, only when called.
 */
export async function checkConfiguredMcpServers(
  settings: ToolSettings,
): Promise<{ problems: string[]; servers: McpServerCheck[] }> {
  const { connectMcpServers, loadMcpPins, loadMcpServers, needsSignIn } = await import('@macstats/tools-mcp');
  const { servers, errors: problems } = await loadMcpServers(mcpConfigSources(settings));
  if (servers.length === 0) return { problems, servers: [] };
  const pins = await loadMcpPins(mcpPinsFile(settings.home)).catch(() => undefined);
  const set = await connectMcpServers(servers, {
    oauth: await mcpOAuthOptions(settings.home),
    ...(pins ? { pins: { get: (server: string) => pins.get(server), set: async () => {} } } : {}),
  });
  const checked: McpServerCheck[] = [];
  try {
    for (const [name, connection] of set.connections) {
      try {
        const tools = await connection.listTools();
        checked.push({
          name,
          status: 'listed',
          tools: tools.map((tool) => tool.name),
          withheld: [...connection.withheld],
        });
      } catch (error) {
        checked.push({
          name,
          status: 'failed',
          reason: (error as Error).message,
          signIn: needsSignIn(error),
        });
      }
    }
  } finally {
    await set.close();
  }
  return { problems, servers: checked };
}
