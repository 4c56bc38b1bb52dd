import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { McpToolInfo } from './tool-info.js';

const maxPages = 100;

/** Every page of `tools/list`, as `McpToolInfo`. A server that pages forever is cut off. */
export async function fetchToolList(
  client: Client,
  signal: AbortSignal | undefined,
  timeout?: number,
): Promise<McpToolInfo[]> {
  const tools: McpToolInfo[] = [];
  let cursor: string | undefined;
  for (let page = 0; page < maxPages; page++) {
    const result = await client.listTools(cursor === undefined ? {} : { cursor }, {
      ...(signal ? { signal } : {}),
      ...(timeout === undefined ? {} : { timeout }),
    });
    for (const tool of result.tools) {
      tools.push({
        name: tool.name,
        ...(tool.title === undefined ? {} : { title: tool.title }),
        ...(tool.description === undefined ? {} : { description: tool.description }),
        inputSchema: tool.inputSchema as Record<string, unknown>,
        ...(tool.annotations === undefined
          ? {}
          : { annotations: tool.annotations as Record<string, unknown> }),
      });
    }
    cursor = result.nextCursor;
    if (!cursor) break;
  }
  return tools;
}
