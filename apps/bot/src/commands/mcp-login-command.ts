import { mcpAuthFile } from '@macstats/app-runtime';
import { MacstatsError, redactUrl } from '@macstats/core';
import { createFileOAuthStore, loadMcpServers, signInMcpServer } from '@macstats/tools-mcp';
import { type AppConfig, paths } from '../app-config.js';
import { type CommandIo, EXIT } from '../command-io.js';

/** Options of `macstats mcp login`. */
export interface McpLoginOptions {
  /** Loopback port of the redirect; 0 picks a free one. */
  port: number;
  /** Ends the wait for the browser (SIGINT, SIGTERM). */
  signal: AbortSignal;
}

/**
 * `macstats mcp login <server>`: the MCP authorization flow for a remote server. Prints the URL
 * to open in a browser, waits for the redirect on 127.0.0.1, and keeps the tokens in
 * `$MACSTATS_HOME/mcp-auth/<server>.json` (mode 0600), where connections find and refresh them.
 */
export async function mcpLoginCommand(
  config: AppConfig,
  io: CommandIo,
  server: string,
  options: McpLoginOptions,
): Promise<number> {
  const { servers, errors } = await loadMcpServers({
    file: paths(config).mcp,
    environment: { MCP_SERVER_STDIO: config.mcpStdio, MCP_SERVER_URL: config.mcpUrl },
  });
  for (const error of errors) io.err(`macstats mcp login: ${error}`);
  const named = servers.find((entry) => entry.name === server);
  if (!named) {
    const known = servers.map((entry) => entry.name).join(', ') || 'none';
    io.err(`macstats mcp login: there is no MCP server "${server}" (configured: ${known}).`);
    return EXIT.usage;
  }
  if (!('url' in named.server)) {
    io.err(`macstats mcp login: MCP server "${server}" runs locally (stdio); only remote servers sign in.`);
    return EXIT.usage;
  }
  const file = mcpAuthFile(config.home, server);
  try {
    const result = await signInMcpServer(named.server, {
      store: createFileOAuthStore(file),
      redirectPort: options.port,
      signal: options.signal,
      onAuthorizationUrl: (url) => {
        io.out(`Open this URL in a browser to sign in to MCP server "${server}":`);
        io.out(url.href);
        io.out('Waiting for the browser to come back to this computer…');
      },
    });
    io.out(
      result.status === 'signed-in'
        ? `Signed in to MCP server "${server}"; the tokens are kept in ${file}.`
        : `MCP server "${server}" did not ask for sign-in; nothing was stored.`,
    );
    return EXIT.ok;
  } catch (error) {
    if (options.signal.aborted) {
      io.err(
        `macstats mcp login: stopped before the browser came back; MCP server "${server}" is not signed in.`,
      );
      return EXIT.interrupted;
    }
    const message = MacstatsError.isInstance(error) || error instanceof Error ? error.message : String(error);
    const reason = redactUrl(message, named.server.url);
    io.err(`macstats mcp login: could not sign in to MCP server "${server}": ${reason.replace(/\.$/, '')}.`);
    return EXIT.failed;
  }
}
