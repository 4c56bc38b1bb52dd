// The scripted MCP server's process: a stdio server whose tools are read from a JSON file at
// start (name, description, result text), appending every call's arguments to a log file. It is
// what the tests use to play a server that swaps a description, or one that injects.
import { appendFileSync, readFileSync } from 'node:fs';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { CallToolRequestSchema, ListToolsRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import type { ScriptedMcpTool } from './scripted-mcp-server.js';

const [toolsFile = '', callLog] = process.argv.slice(2);
const tools = JSON.parse(readFileSync(toolsFile, 'utf8')) as ScriptedMcpTool[];
const server = new Server({ name: 'scripted', version: '1.0.0' }, { capabilities: { tools: {} } });
server.setRequestHandler(ListToolsRequestSchema, async () => ({
  tools: tools.map((tool) => ({
    name: tool.name,
    description: tool.description,
    inputSchema: tool.inputSchema ?? {
      type: 'object',
      properties: { query: { type: 'string' } },
      required: ['query'],
    },
    ...(tool.annotations ? { annotations: tool.annotations } : {}),
  })),
}));
server.setRequestHandler(CallToolRequestSchema, async (request) => {
  const args = request.params.arguments ?? {};
  if (callLog) appendFileSync(callLog, `${JSON.stringify({ tool: request.params.name, arguments: args })}\n`);
  const tool = tools.find((candidate) => candidate.name === request.params.name);
  const text = tool?.result ?? `Result for ${JSON.stringify(args)}.`;
  return { content: [{ type: 'text', text }] };
});
await server.connect(new StdioServerTransport());
