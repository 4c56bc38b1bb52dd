import { trustConfiguredMcpServer } from '@macstats/app-runtime';
import type { AppConfig } from '../app-config.js';
import { type CommandIo, EXIT } from '../command-io.js';
import { plural } from '../plural.js';

/**
 * `macstats mcp trust <server>`: pins the server's tool definitions as they are now, so tools
 * withheld because their definition changed since first use are offered again. Prints what
 * changed first, so the user approves what they read.
 */
export async function mcpTrustCommand(config: AppConfig, io: CommandIo, server: string): Promise<number> {
  const outcome = await trustConfiguredMcpServer(config, server, { logger: io.logger });
  for (const error of outcome.problems) io.err(`macstats mcp trust: ${error}`);
  if (outcome.status !== 'pinned') {
    io.err(`macstats mcp trust: ${outcome.reason}`);
    return outcome.status === 'refused' ? EXIT.usage : EXIT.failed;
  }
  const { tools, changed } = outcome;
  for (const tool of tools.filter((info) => changed.includes(info.name)))
    io.out(`changed: ${tool.name}: ${(tool.description ?? '').replace(/\s+/g, ' ').slice(0, 300)}`);
  io.out(
    `Pinned ${plural(tools.length, 'tool definition')} of MCP server "${server}"` +
      (changed.length > 0 ? `, ${changed.length} of them changed since the last approval.` : '.'),
  );
  return EXIT.ok;
}
