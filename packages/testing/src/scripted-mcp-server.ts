import { writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

/** One tool of the scripted MCP server. */
export interface ScriptedMcpTool {
  name: string;
  description: string;
  /** JSON Schema of its arguments; default `{ query: string }`. */
  inputSchema?: Record<string, unknown>;
  annotations?: Record<string, unknown>;
  /** The text every call returns; default `Result for <arguments as JSON>.`. */
  result?: string;
}

/**
 * A real stdio MCP server (the official SDK's `Server` in a child process) whose tools come from
 * `toolsFile`, read at each start: rewrite the file and restart the server to play one that
 * changed its definitions. Every call is appended to `callLog` as a JSON line
 * `{ tool, arguments }`. Returns the `MCP_SERVER_STDIO` form (`node|script|toolsFile|callLog`).
 *
 * @example
 * const stdio = scriptedMcpServer(join(dir, 'tools.json'), [{ name: 'lookup', description: 'Looks up.' }]);
 * const connection = await connectMcp({ stdio });
 */
export function scriptedMcpServer(
  toolsFile: string,
  tools: readonly ScriptedMcpTool[],
  callLog?: string,
): string {
  writeFileSync(toolsFile, JSON.stringify(tools));
  const script = fileURLToPath(new URL('./scripted-mcp-server-main.js', import.meta.url));
  return [process.execPath, script, toolsFile, ...(callLog ? [callLog] : [])].join('|');
}
