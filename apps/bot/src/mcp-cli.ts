import type { Command } from 'commander';
import { cliVersion, exitCodes, integerIn, run, stopSignalFromProcess } from './cli-support.js';

/** Registers `macstats mcp` (serve the tools), `mcp trust` and `mcp login` on the program. */
export function registerMcpCommands(program: Command): void {
  const mcp = program
    .command('mcp')
    .enablePositionalOptions()
    .description(
      'serve the tools (FETCH_URL, BROWSER, WEB_SEARCH or BRAVE_SEARCH, RUN_CMD, METRICS, SCHEDULER, MEMORY) as an MCP server, on stdio by default',
    )
    .option('--http', 'serve Streamable HTTP on 127.0.0.1 with a bearer token instead of stdio')
    .option('--port <n>', 'the HTTP port (0 picks a free one)', integerIn(0, 65535, '--port'), 8765)
    .addHelpText(
      'after',
      `
In stdio mode standard output is the protocol; messages go to standard error and the log file.
With --http the token is MACSTATS_MCP_TOKEN, or a new one printed to standard error.
MCP_SERVE_TOOLS (a comma list) limits the tools served. See docs/mcp.md.
${exitCodes(['0  stopped (SIGINT, SIGTERM, or the client closed standard input)', '1  could not start (the port is taken, say)'])}`,
    )
    .action((options: { http?: boolean; port: number }) =>
      run(
        'file-only',
        async (config, io) =>
          (await import('./commands/mcp-command.js')).mcpCommand(config, io, {
            http: options.http === true,
            port: options.port,
            stopSignal: stopSignalFromProcess(),
            version: cliVersion(),
          }),
        'mcp',
      ),
    );

  mcp
    .command('trust')
    .argument(
      '<server>',
      'the server, as named in mcp.json (or "default" for MCP_SERVER_STDIO / MCP_SERVER_URL)',
    )
    .description(
      "accept an MCP server's tool definitions as they are now, so tools that changed since first use are offered again",
    )
    .addHelpText(
      'after',
      `
Tool definitions are pinned the first time a server is used; a tool whose description, schema or
annotations change later is not offered until you accept it here. It prints what changed first.
${exitCodes(['0  pinned', '1  the server did not answer, or the pins file cannot be read', '2  no such server'])}`,
    )
    .action((server: string) =>
      run('file-only', async (config, io) =>
        (await import('./commands/mcp-trust-command.js')).mcpTrustCommand(config, io, server),
      ),
    );

  mcp
    .command('login')
    .argument('<server>', 'the remote server, as named in mcp.json (or "default" for MCP_SERVER_URL)')
    .description('sign in to a remote MCP server that requires it (the MCP authorization flow, OAuth 2.1)')
    .option(
      '--port <n>',
      'the loopback port the browser comes back to (0 picks a free one)',
      integerIn(0, 65535, '--port'),
      0,
    )
    .addHelpText(
      'after',
      `
Prints a URL to open in a browser; after you approve there, the browser comes back to
127.0.0.1 and the tokens are kept in $MACSTATS_HOME/mcp-auth/<server>.json (mode 0600).
Connections refresh them; when that fails they say so and ask you to run this again. A sign-in
stopped before it completes (Ctrl-C) leaves the earlier tokens as they were.
${exitCodes(['0  signed in (or the server needs no sign-in)', '1  the sign-in failed', '2  no such remote server', '130  stopped before the browser came back'])}`,
    )
    .action((server: string, options: { port: number }) =>
      run('file-only', async (config, io) =>
        (await import('./commands/mcp-login-command.js')).mcpLoginCommand(config, io, server, {
          port: options.port,
          signal: stopSignalFromProcess(),
        }),
      ),
    );
}
