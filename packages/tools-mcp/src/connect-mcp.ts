import { MacstatsError } from '@macstats/core';
import { McpConnection } from './connection.js';
import type { McpConnectOptions } from './events.js';
import { mcpError } from './mcp-errors.js';
import type { McpServerSpec } from './server-spec.js';

/**
 * Connects to one MCP server and lists its tools. The connection stays warm: one server
 * process (or HTTP session) serves every call until `close()`.
 *
 * @param server `{ stdio: 'command|arg1|arg2' }` (the `MCP_SERVER_STDIO` form, with optional
 *   `env`), `{ command, args }`, or `{ url }` (Streamable HTTP, falling back to SSE).
 * @throws MacstatsError `MCP_CONNECT_FAILED` when the server cannot be started or reached, or
 *   its `tools/list` fails; `MCP_CONFIG_INVALID` for a stdio form with no command or a URL
 *   that is not http(s); `MCP_AUTH_REQUIRED` when the server requires sign-in and no valid
 *   token is stored (the message says so, with `options.oauth.signInHint`).
 *
 * @example
 * ```ts
 * const mcp = await connectMcp({ stdio: 'npx|-y|@openbnb/mcp-server-airbnb' });
 * const agent = createAgent({ ollama: { model: 'qwen3' }, tools: [mcp.tool] });
 * // …
 * await mcp.close();
 * ```
 */
export async function connectMcp(
  server: McpServerSpec,
  options: McpConnectOptions = {},
): Promise<McpConnection> {
  const connection = new McpConnection(server, options);
  try {
    await connection.connect();
  } catch (error) {
    await connection.close();
    // A sign-in sentence already names the server and says what to do.
    if (MacstatsError.isInstance(error) && error.code === 'MCP_AUTH_REQUIRED') {
      throw mcpError('MCP_AUTH_REQUIRED', `${capitalize(error.message)}.`, { cause: error });
    }
    const reason = MacstatsError.isInstance(error) ? error.message : String(error);
    throw mcpError(
      'MCP_CONNECT_FAILED',
      `Could not connect to MCP server "${connection.name}" (${connection.description}): ${reason}.`,
      { cause: error },
    );
  }
  return connection;
}

function capitalize(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}
