import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Logger } from '@macstats/core';
import { bearerToken, createTokenMatcher, isLoopbackHost, isLoopbackOrigin } from '@macstats/loopback-guard';
import type { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';

/** Options of {@link serveHttp}. */
export interface ServeHttpOptions {
  /** Port on 127.0.0.1; 0 picks a free one. */
  port: number;
  /** The bearer token every request must carry. */
  token: string;
  logger: Logger;
}

/** A running Streamable HTTP endpoint. */
export interface HttpEndpoint {
  /** `http://127.0.0.1:<port>/mcp`. */
  url: string;
  close(): Promise<void>;
}

/** The MCP endpoint's path. */
export const MCP_PATH = '/mcp';

function refuse(
  response: ServerResponse,
  status: number,
  message: string,
  headers: Record<string, string> = {},
) {
  response
    .writeHead(status, {
      'content-type': 'text/plain; charset=utf-8',
      'cache-control': 'no-store',
      ...headers,
    })
    .end(`${message}\n`);
}

/**
 * Serves MCP over Streamable HTTP on 127.0.0.1, stateless (a fresh server per request, as the
 * SDK's stateless mode wants). Every request is checked before the SDK sees it: a `Host` that is
 * not this loopback address is refused with 421 (DNS rebinding), an `Origin` other than its own
 * with 403 (a web page in a browser), a missing or wrong bearer token with 401.
 */
export async function serveHttp(newServer: () => Server, options: ServeHttpOptions): Promise<HttpEndpoint> {
  const tokenMatches = createTokenMatcher(options.token);
  let port = options.port;

  async function handle(request: IncomingMessage, response: ServerResponse) {
    if (!isLoopbackHost(request, port)) {
      return refuse(response, 421, `This MCP server answers only at http://127.0.0.1:${port}${MCP_PATH}.`);
    }
    const origin = request.headers.origin;
    if (origin !== undefined && !isLoopbackOrigin(origin, port)) {
      return refuse(response, 403, 'Requests from web pages are refused.');
    }
    if (!tokenMatches(bearerToken(request))) {
      return refuse(response, 401, 'This MCP server needs its token: send "Authorization: Bearer <token>".', {
        'www-authenticate': 'Bearer',
      });
    }
    const path = new URL(request.url ?? '/', 'http://127.0.0.1').pathname;
    if (path !== MCP_PATH) return refuse(response, 404, `The MCP endpoint is ${MCP_PATH}.`);
    if (request.method !== 'POST') {
      // Stateless: no standalone SSE stream (GET) and no session to end (DELETE).
      return refuse(response, 405, 'Only POST is served here.', { allow: 'POST' });
    }
    const server = newServer();
    // No sessionIdGenerator: the SDK's stateless mode.
    const transport = new StreamableHTTPServerTransport({ enableJsonResponse: true });
    response.on('close', () => {
      transport.close().catch(() => {});
      server.close().catch(() => {});
    });
    await server.connect(transport);
    await transport.handleRequest(request, response);
  }

  const http = createServer((request, response) => {
    handle(request, response).catch((error) => {
      options.logger.error({ err: error }, 'mcp serve: request failed');
      if (!response.headersSent) refuse(response, 500, 'The MCP server failed on this request.');
      else response.end();
    });
  });
  await new Promise<void>((resolve, reject) => {
    http.once('error', reject);
    http.listen(options.port, '127.0.0.1', () => {
      http.off('error', reject);
      resolve();
    });
  });
  port = (http.address() as AddressInfo).port;
  return {
    url: `http://127.0.0.1:${port}${MCP_PATH}`,
    close: () =>
      new Promise<void>((resolve) => {
        http.closeAllConnections();
        http.close(() => resolve());
      }),
  };
}
