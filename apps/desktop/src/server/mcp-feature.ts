import type { McpServerSet } from '@macstats/tools-mcp';
import type { McpServerView } from '../shared/mcp-types.js';
import { HttpError, sendJson } from './http-helpers.js';
import type { DashboardFeature } from './start-dashboard.js';

function viewOf(mcp: McpServerSet): McpServerView[] {
  return [...mcp.connections.values()].map((connection) => ({
    name: connection.name,
    trusted: connection.trusted,
    status: connection.status,
    tools: connection.tools.map((tool) => tool.name),
    withheld: [...connection.withheld],
  }));
}

/**
 * MCP servers in the page: `GET /api/mcp` lists them with the tools they offer and those withheld
 * because their definition changed since it was pinned; `POST /api/mcp/<server>/trust` pins the
 * server's current definitions (what `macstats mcp trust <server>` does), so they are offered
 * again. Behind the dashboard's token, Host and Origin checks, like every write.
 */
export function createMcpFeature(mcp: McpServerSet | undefined): DashboardFeature {
  return {
    routes: [
      {
        method: 'GET',
        path: /^\/api\/mcp$/,
        kind: 'read',
        handle({ response }) {
          sendJson(response, 200, { servers: mcp ? viewOf(mcp) : [] });
        },
      },
      {
        method: 'POST',
        path: /^\/api\/mcp\/([^/]+)\/trust$/,
        kind: 'write',
        async handle({ response, params }) {
          const name = params[0] ?? '';
          const connection = mcp?.connections.get(name);
          if (!mcp || !connection) throw new HttpError(404, `There is no MCP server "${name}".`);
          if (connection.status !== 'connected')
            throw new HttpError(503, `MCP server "${name}" is not answering; nothing was pinned.`);
          await connection.pinTools();
          sendJson(response, 200, { servers: viewOf(mcp) });
        },
      },
    ],
  };
}
