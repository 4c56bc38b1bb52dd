import { once } from 'node:events';
import { createLaunchToken } from '@macstats/loopback-guard';
import type { AppConfig } from '../app-config.js';
import { assembleBotTools } from '../bot-tools.js';
import { type CommandIo, EXIT } from '../command-io.js';
import { serveHttp } from '../mcp/serve-http.js';
import { createToolServerFactory } from '../mcp/tool-server.js';
import { connectSharedState } from '../shared-state.js';

/** Options of {@link mcpCommand}. */
export interface McpCommandOptions {
  /** Serve Streamable HTTP on 127.0.0.1 instead of stdio. */
  http: boolean;
  /** The HTTP port; 0 picks a free one. */
  port: number;
  /** Aborts on SIGINT or SIGTERM. */
  stopSignal: AbortSignal;
  /** The server version in the handshake. */
  version: string;
}

/** The scope MEMORY keeps an MCP client's notes in. */
export const MCP_CONVERSATION_ID = 'mcp';

/**
 * `macstats mcp`: the bot's tools as an MCP server, over stdio (standard output is the protocol,
 * so everything else goes to standard error and the log file) or, with `--http`, over
 * Streamable HTTP on 127.0.0.1 behind a bearer token. Runs until SIGINT/SIGTERM, or until the
 * client closes standard input in stdio mode. With `DATABASE_URL` its SCHEDULER and MEMORY tools
 * work on the shared schedules and notes.
 */
export async function mcpCommand(
  config: AppConfig,
  io: CommandIo,
  options: McpCommandOptions,
): Promise<number> {
  const shared = await connectSharedState(config, io.logger);
  const assembled = await assembleBotTools(config, {
    logger: io.logger,
    scheduleSource: shared.scheduleSource,
    noteBackend: shared.noteBackend,
  }).catch(async (error: unknown) => {
    await shared.close();
    throw error;
  });
  try {
    const { tools, problems } = assembled.served(config.mcpServeTools);
    for (const problem of [...assembled.problems, ...problems]) io.err(`macstats mcp: ${problem}`);
    if (tools.some((tool) => tool.name === 'METRICS')) assembled.collector.start();
    const newServer = createToolServerFactory(tools, {
      name: 'macstats',
      version: options.version,
      conversationId: MCP_CONVERSATION_ID,
      logger: io.logger,
    });
    const names = tools.map((tool) => tool.name).join(', ');
    if (options.http) {
      const token = config.mcpToken ?? createLaunchToken();
      const endpoint = await serveHttp(newServer, { port: options.port, token, logger: io.logger });
      io.err(`macstats mcp: serving ${names} at ${endpoint.url}`);
      // The token goes to standard error only when this launch made it; a configured one is already known.
      if (config.mcpToken === undefined) io.err(`macstats mcp: token ${token}`);
      else io.err('macstats mcp: token from MACSTATS_MCP_TOKEN');
      io.logger.info({ url: endpoint.url, tools: names }, 'mcp serve: listening');
      if (!options.stopSignal.aborted) await once(options.stopSignal, 'abort');
      await endpoint.close();
      return EXIT.ok;
    }
    const { StdioServerTransport } = await import('@modelcontextprotocol/sdk/server/stdio.js');
    const server = newServer();
    const closed = new Promise<void>((resolve) => {
      server.onclose = () => resolve();
      process.stdin.once('end', () => resolve());
      options.stopSignal.addEventListener('abort', () => resolve(), { once: true });
    });
    await server.connect(new StdioServerTransport());
    io.err(`macstats mcp: serving ${names} on stdio`);
    io.logger.info({ tools: names }, 'mcp serve: stdio');
    await closed;
    await server.close();
    return EXIT.ok;
  } finally {
    await assembled.close();
    await shared.close();
  }
}
