import { signInConfiguredMcpServer } from '@macstats/app-runtime';
import type { AppConfig } from '../app-config.js';
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
  try {
    const outcome = await signInConfiguredMcpServer(config, server, {
      redirectPort: options.port,
      signal: options.signal,
      onAuthorizationUrl: (url) => {
        io.out(`Open this URL in a browser to sign in to MCP server "${server}":`);
        io.out(url.href);
        io.out('Waiting for the browser to come back to this computer…');
      },
    });
    for (const problem of outcome.problems) io.err(`macstats mcp login: ${problem}`);
    if (outcome.status === 'refused') {
      io.err(`macstats mcp login: ${outcome.reason}`);
      return EXIT.usage;
    }
    if (outcome.status === 'failed') {
      io.err(`macstats mcp login: could not sign in to MCP server "${server}": ${outcome.reason}`);
      return EXIT.failed;
    }
    io.out(
      outcome.status === 'signed-in'
        ? `Signed in to MCP server "${server}"; the tokens are kept in ${outcome.file}.`
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
    throw error;
  }
}
