import { mcpOAuthOptions } from '@macstats/app-runtime';
import { connectMcpServers, loadMcpPins, loadMcpServers } from '@macstats/tools-mcp';
import { type AppConfig, paths } from '../app-config.js';
import { type CommandIo, EXIT } from '../command-io.js';
import { plural } from '../plural.js';

/**
 * `macstats mcp trust <server>`: pins the server's tool definitions as they are now, so tools
 * withheld because their definition changed since first use are offered again. Prints what
 * changed first, so the user approves what they read.
 */
export async function mcpTrustCommand(config: AppConfig, io: CommandIo, server: string): Promise<number> {
  const { servers, errors } = await loadMcpServers({
    file: paths(config).mcp,
    environment: { MCP_SERVER_STDIO: config.mcpStdio, MCP_SERVER_URL: config.mcpUrl },
  });
  for (const error of errors) io.err(`macstats mcp trust: ${error}`);
  const named = servers.find((entry) => entry.name === server);
  if (!named) {
    const known = servers.map((entry) => entry.name).join(', ') || 'none';
    io.err(`macstats mcp trust: there is no MCP server "${server}" (configured: ${known}).`);
    return EXIT.usage;
  }
  const pins = await loadMcpPins(paths(config).mcpPins);
  const set = await connectMcpServers([named], {
    logger: io.logger,
    pins,
    oauth: await mcpOAuthOptions(config.home),
  });
  try {
    const connection = set.connections.get(server);
    if (connection?.status !== 'connected') {
      io.err(`macstats mcp trust: MCP server "${server}" is not answering; nothing was pinned.`);
      return EXIT.failed;
    }
    const changed = [...connection.withheld];
    const tools = await connection.pinTools();
    for (const tool of tools.filter((info) => changed.includes(info.name)))
      io.out(`changed: ${tool.name}: ${(tool.description ?? '').replace(/\s+/g, ' ').slice(0, 300)}`);
    io.out(
      `Pinned ${plural(tools.length, 'tool definition')} of MCP server "${server}"` +
        (changed.length > 0 ? `, ${changed.length} of them changed since the last approval.` : '.'),
    );
    return EXIT.ok;
  } finally {
    await set.close();
  }
}
