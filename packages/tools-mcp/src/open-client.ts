import type { Logger } from '@macstats/core';
import { redactUrl } from '@macstats/core/internal';
import type { OAuthClientProvider } from '@modelcontextprotocol/sdk/client/auth.js';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import { trackChild, untrackChild } from './child-registry.js';
import type { McpElicitationHandler } from './elicitation.js';
import { isUnauthorized } from './oauth-failure.js';
import type { McpOAuthProvider } from './oauth-provider.js';
import {
  commandLineOf,
  isUrlServer,
  type McpCommandServer,
  type McpServerSpec,
  type McpStdioServer,
} from './server-spec.js';
import { stepUpFetch } from './step-up.js';

/** How a connection reached its server. */
export type McpTransportKind = 'stdio' | 'streamable-http' | 'sse';

/** A connected SDK client and what the connection needs to know about it. */
export interface OpenClient {
  client: Client;
  kind: McpTransportKind;
  /** Process id of a stdio server. */
  pid?: number;
  /** The last lines the server wrote to stderr, newest last: the best clue when it dies. */
  stderrTail(): string[];
}

export interface OpenClientOptions {
  /** Server name, for log lines. */
  name: string;
  logger: Logger;
  signal: AbortSignal;
  timeoutMs: number;
  clientName: string;
  clientVersion: string;
  /** Transport of an earlier successful connection, so a reconnect skips the fallback. */
  knownKind?: McpTransportKind | undefined;
  /** Signs in to a server that requires the MCP authorization flow. */
  authProvider?: OAuthClientProvider | undefined;
  /** Answers servers' questions to the user; when absent, elicitation is not offered. */
  elicitation?: McpElicitationHandler | undefined;
  /** Called when the server says its tool list changed. */
  onToolsChanged(client: Client): void;
  /** Called when the transport closes without `close()`: the server died or hung up. */
  onClose(): void;
}

const stderrLines = 5;

/**
 * Starts or reaches the server, runs the MCP handshake and resolves with the client. A stdio
 * child is tracked so it dies with this process. A URL tries Streamable HTTP, then SSE.
 *
 * The SDK is imported here, on the first connection, not with the package: it and its schema
 * library cost tens of megabytes resident in a process that has no MCP server configured.
 */
export async function openClient(server: McpServerSpec, options: OpenClientOptions): Promise<OpenClient> {
  if (!isUrlServer(server)) return openStdio(server, options);
  const [{ SSEClientTransport }, { StreamableHTTPClientTransport }] = await Promise.all([
    import('@modelcontextprotocol/sdk/client/sse.js'),
    import('@modelcontextprotocol/sdk/client/streamableHttp.js'),
  ]);
  const url = new URL(server.url);
  const wanted = server.transport ?? 'auto';
  const provider = options.authProvider as (OAuthClientProvider & Partial<McpOAuthProvider>) | undefined;
  const transportOptions = {
    ...(server.headers ? { requestInit: { headers: server.headers } } : {}),
    ...(provider ? { authProvider: provider } : {}),
    // A call refused for want of scope is recorded, so the user hears what to grant.
    ...(provider?.askedForScope ? { fetch: stepUpFetch(provider as McpOAuthProvider) } : {}),
  };
  const streamable = () => new StreamableHTTPClientTransport(url, transportOptions) as Transport;
  const sse = () => new SSEClientTransport(url, transportOptions) as Transport;

  if (wanted === 'sse' || (wanted === 'auto' && options.knownKind === 'sse')) {
    return { ...(await connectWith(sse(), 'sse', options)), stderrTail: () => [] };
  }
  try {
    return { ...(await connectWith(streamable(), 'streamable-http', options)), stderrTail: () => [] };
  } catch (error) {
    // A server that wants sign-in speaks Streamable HTTP: falling back would hide that.
    if (wanted !== 'auto' || options.signal.aborted || isUnauthorized(error)) throw error;
    options.logger.debug(
      { server: options.name, reason: redactUrl(String(error), server.url) },
      'MCP server did not take Streamable HTTP; trying SSE',
    );
    try {
      return { ...(await connectWith(sse(), 'sse', options)), stderrTail: () => [] };
    } catch (sseError) {
      // Report the first failure: a modern server that is down says more than the SSE attempt.
      throw new AggregateError([error, sseError], errorText(error), { cause: error });
    }
  }
}

async function openStdio(
  server: McpStdioServer | McpCommandServer,
  options: OpenClientOptions,
): Promise<OpenClient> {
  const { command, args } = commandLineOf(server);
  const { StdioClientTransport } = await import('@modelcontextprotocol/sdk/client/stdio.js');
  const transport = new StdioClientTransport({
    command,
    args,
    ...(server.env ? { env: server.env } : {}),
    ...(server.cwd ? { cwd: server.cwd } : {}),
    // Piped, never inherited: a library must not print the server's banner on the host's
    // stderr. The stream is always read, or a chatty server would block on a full pipe.
    stderr: 'pipe',
  });
  const tail: string[] = [];
  let partial = '';
  transport.stderr?.on('data', (chunk: Buffer) => {
    const lines = (partial + chunk.toString('utf8')).split('\n');
    partial = lines.pop() ?? '';
    for (const raw of lines) {
      const line = raw.trim();
      if (line === '') continue;
      options.logger.debug({ server: options.name, line }, 'MCP server stderr');
      tail.push(line.slice(0, 500));
      if (tail.length > stderrLines) tail.shift();
    }
  });
  const stderrTail = () => (partial.trim() === '' ? [...tail] : [...tail, partial.trim().slice(0, 500)]);

  // The pid is known once the child has spawned, inside `connect`; wrap `start` to catch it.
  let pid: number | undefined;
  const start = transport.start.bind(transport);
  transport.start = async () => {
    await start();
    pid = transport.pid ?? undefined;
    if (pid !== undefined) trackChild(pid);
  };
  const untrack = () => {
    if (pid !== undefined) untrackChild(pid);
  };
  try {
    const opened = await connectWith(transport, 'stdio', options, untrack);
    return { ...opened, ...(pid === undefined ? {} : { pid }), stderrTail };
  } catch (error) {
    untrack();
    const last = stderrTail().at(-1);
    if (last && !errorText(error).includes(last)) {
      throw new Error(`${errorText(error)} (server stderr: ${last})`, { cause: error });
    }
    throw error;
  }
}

async function connectWith(
  transport: Transport,
  kind: McpTransportKind,
  options: OpenClientOptions,
  onTransportClose?: () => void,
): Promise<{ client: Client; kind: McpTransportKind }> {
  const { elicitation } = options;
  const [{ Client }, { ElicitRequestSchema, ToolListChangedNotificationSchema }] = await Promise.all([
    import('@modelcontextprotocol/sdk/client/index.js'),
    import('@modelcontextprotocol/sdk/types.js'),
  ]);
  const client = new Client(
    { name: options.clientName, version: options.clientVersion },
    { capabilities: elicitation ? { elicitation: { form: { applyDefaults: true } } } : {} },
  );
  if (elicitation) {
    client.setRequestHandler(ElicitRequestSchema, (request, extra) =>
      elicitation(
        { server: options.name, message: request.params.message, params: request.params },
        extra.signal,
      ),
    );
  }
  client.setNotificationHandler(ToolListChangedNotificationSchema, () => options.onToolsChanged(client));
  let connected = false;
  let closedByUs = false;
  client.onclose = () => {
    onTransportClose?.();
    if (connected && !closedByUs) options.onClose();
  };
  const close = client.close.bind(client);
  client.close = async () => {
    closedByUs = true;
    await close();
  };
  try {
    await client.connect(transport, { signal: options.signal, timeout: options.timeoutMs });
    connected = true;
    return { client, kind };
  } catch (error) {
    // A half-open connection still owns a child process or an HTTP session: end it.
    await client.close().catch(() => {});
    throw error;
  }
}

/** The message of any thrown value. */
export function errorText(error: unknown): string {
  if (error instanceof Error) return error.message;
  return String(error);
}
