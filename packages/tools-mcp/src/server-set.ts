import { MacstatsError, silentLogger, type ToolResult } from '@macstats/core';
import { McpConnection } from './connection.js';
import type { McpCallOptions } from './connection-types.js';
import { MCP_DEFAULTS } from './defaults.js';
import type { McpConnectOptions, McpEvent } from './events.js';
import { type McpNamedServer, serverKey } from './mcp-config.js';
import { createMcpTool, type McpCatalogEntry, type McpTool } from './mcp-tool.js';
import type { McpServerSpec } from './server-spec.js';
import type { McpToolInfo } from './tool-info.js';
import { resolveName, SERVER_SEPARATOR } from './tool-names.js';

/** A tool of a server set, under the name the model writes. */
export interface McpSetToolInfo extends McpToolInfo {
  /** The server it belongs to. */
  server: string;
  /** `server__tool` with several servers, the tool's own name with one. */
  displayName: string;
}

/** Several MCP servers behind one `MCP` tool. Made by `connectMcpServers`. */
export interface McpServerSet {
  /** Every configured server by name, reachable or not. */
  readonly connections: ReadonlyMap<string, McpConnection>;
  /** One `MCP` tool over the tools of every reachable server. */
  readonly tool: McpTool;
  /** The tools of every server, fetched anew; a server that fails is left out and logged. */
  listTools(options?: { signal?: AbortSignal }): Promise<McpSetToolInfo[]>;
  /** Calls a tool by the name the model writes (`server__tool`, or the bare name when unique). */
  callTool(name: string, args?: Record<string, unknown>, options?: McpCallOptions): Promise<ToolResult>;
  /** Ends every server. */
  close(): Promise<void>;
}

/**
 * Connects to several servers at once (from `mcp.json` and the environment) and offers their
 * tools as one `MCP` tool. With more than one server, tools are named `server__tool`, so two
 * servers' tools never collide. A server that cannot be reached is logged and left out; it is
 * tried again in the background with backoff (1 s, 2 s, 4 s … up to 60 s) until it answers, and
 * at once when the tool list is read after its backoff.
 *
 * @example
 * ```ts
 * const { servers, errors } = await loadMcpServers({ file: join(home, 'mcp.json'), environment: config.values });
 * const mcp = await connectMcpServers(servers, { logger });
 * const agent = createAgent({ ollama: { model: 'qwen3' }, tools: [mcp.tool] });
 * ```
 */
export async function connectMcpServers(
  servers: readonly McpNamedServer[] | Record<string, McpServerSpec>,
  options: Omit<McpConnectOptions, 'name'> = {},
): Promise<McpServerSet> {
  const logger = options.logger ?? silentLogger;
  const list = Array.isArray(servers)
    ? (servers as readonly McpNamedServer[])
    : Object.entries(servers).map(([name, server]): McpNamedServer => ({ name, server }));
  const connections = new Map<string, McpConnection>();
  // A server that could not be reached is tried again in the background, after its backoff,
  // until it answers: its tools then join the list without waiting for anyone to read it.
  const retries = new Map<McpConnection, NodeJS.Timeout>();
  let closed = false;
  const retryLater = (connection: McpConnection) => {
    if (closed || retries.has(connection) || connection.tools.length > 0) return;
    const delay = Math.max(connection.retryInMs, options.restartBackoffMs ?? MCP_DEFAULTS.restartBackoffMs);
    const timer = setTimeout(() => {
      retries.delete(connection);
      if (closed || connection.status !== 'down' || connection.tools.length > 0) return;
      if (connection.retryInMs > 0) retryLater(connection);
      // A failure reports `server-fail` again, which plans the next try.
      else void connection.connect().catch(() => {});
    }, delay);
    timer.unref();
    retries.set(connection, timer);
  };
  const watch = (event: McpEvent) => {
    const connection = event.type === 'server-fail' ? connections.get(event.server) : undefined;
    if (connection) retryLater(connection);
    options.onEvent?.(event);
  };
  for (const { name, server, trust } of list) {
    const key = serverKey(name);
    if (connections.has(key)) {
      logger.warn({ server: name }, 'MCP server named twice; the second is skipped');
      continue;
    }
    try {
      connections.set(
        key,
        new McpConnection(server, {
          ...options,
          name: key,
          onEvent: watch,
          trust: trust ?? options.trust ?? false,
        }),
      );
    } catch (error) {
      const reason = MacstatsError.isInstance(error) ? error.message : String(error);
      logger.warn({ server: key, reason }, 'MCP server config is invalid; it is skipped');
    }
  }
  await Promise.all(
    [...connections.values()].map((connection) =>
      // Each failure is logged by the connection; the set goes on without that server.
      connection.connect().catch(() => {}),
    ),
  );

  const qualify = connections.size > 1;
  const catalog = (): McpCatalogEntry[] =>
    [...connections.values()].flatMap((connection) =>
      connection.tools.map((tool) => ({
        displayName: qualify ? `${connection.name}${SERVER_SEPARATOR}${tool.name}` : tool.name,
        tool,
        connection,
      })),
    );
  const revive = () => {
    for (const connection of connections.values()) {
      if (connection.tools.length === 0 && connection.status === 'down' && connection.retryInMs === 0) {
        void connection.connect().catch(() => {});
      }
    }
  };
  const tool = createMcpTool(catalog, {
    maxDescriptionChars: options.maxDescriptionChars ?? MCP_DEFAULTS.maxDescriptionChars,
    unavailable: () => {
      if (connections.size === 0) return 'no MCP server is configured';
      // A server that answers but whose every tool is withheld is not unreachable: say why.
      const answering = [...connections.values()].filter((connection) => connection.status === 'connected');
      if (answering.length > 0 && answering.every((connection) => connection.withheld.length > 0))
        return 'their definitions changed since the user approved them, and they wait for the user to approve them again';
      return 'no MCP server is reachable';
    },
    onRead: revive,
  });

  return {
    connections,
    tool,
    async listTools(listOptions = {}) {
      const lists = await Promise.all(
        [...connections.values()].map(async (connection) => {
          try {
            const tools = await connection.listTools({ refresh: true, ...listOptions });
            return tools.map((info) => ({
              ...info,
              server: connection.name,
              displayName: qualify ? `${connection.name}${SERVER_SEPARATOR}${info.name}` : info.name,
            }));
          } catch (error) {
            if (listOptions.signal?.aborted) throw error;
            const reason = MacstatsError.isInstance(error) ? error.message : String(error);
            logger.warn(
              { server: connection.name, reason },
              'MCP tools/list failed; leaving this server out',
            );
            return [];
          }
        }),
      );
      return lists.flat();
    },
    async callTool(name, args = {}, callOptions = {}) {
      const entry = resolveName(catalog(), name);
      if (!entry) return { isError: true, text: `There is no MCP tool "${name}".` };
      return entry.connection.callTool(entry.tool.name, args, {
        displayName: entry.displayName,
        ...callOptions,
      });
    },
    async close() {
      closed = true;
      for (const timer of retries.values()) clearTimeout(timer);
      retries.clear();
      await Promise.all([...connections.values()].map((connection) => connection.close()));
    },
  };
}
