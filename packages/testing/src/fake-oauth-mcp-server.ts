import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { CallToolRequestSchema, ListToolsRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import { FakeOAuthAuthority, type FakeOAuthRecord } from './fake-oauth-authority.js';
import { listen, sendJson } from './http-helpers.js';

const echoTool = {
  name: 'echo',
  description: 'Echoes the message.',
  inputSchema: { type: 'object', properties: { message: { type: 'string' } }, required: ['message'] },
} as const;

/** A running MCP server that requires the MCP authorization flow, with its own authorization server. */
export interface FakeOAuthMcpServer {
  /** The MCP endpoint, `http://127.0.0.1:<port>/mcp`. */
  url: string;
  /** Registrations, grants and resource indicators seen so far. */
  record: FakeOAuthRecord;
  /** MCP requests refused for a missing or expired token. */
  unauthorized: number;
  /** Expires every access token; a refresh token still gets a new one. */
  expireAccessTokens(): void;
  /** Revokes every refresh token: after the next expiry the user must sign in again. */
  revokeRefreshTokens(): void;
  /** The user refuses every sign-in from now on: `/authorize` redirects with `access_denied`. */
  denyAuthorizations(): void;
  close(): Promise<void>;
}

/**
 * Starts, on 127.0.0.1 and a free port, an MCP server (the official SDK's, over Streamable
 * HTTP, with one tool `echo {message}`) that answers 401 without a valid bearer token, and the
 * authorization server it names: `/.well-known/oauth-protected-resource/mcp`,
 * `/.well-known/oauth-authorization-server`, `/register`, `/authorize` (approves at once and
 * redirects with a code: GET it as the browser would) and `/token`.
 *
 * @example
 * const server = await startFakeOAuthMcpServer();
 * await signInMcpServer({ url: server.url }, { store, onAuthorizationUrl: (url) => fetch(url) });
 */
export async function startFakeOAuthMcpServer(): Promise<FakeOAuthMcpServer> {
  let base = '';
  const authority = new FakeOAuthAuthority(() => base);
  let unauthorized = 0;
  const resourceMetadata = () => `${base}/.well-known/oauth-protected-resource/mcp`;

  const serveMcp = async (request: IncomingMessage, response: ServerResponse) => {
    const bearer = /^Bearer (.+)$/.exec(request.headers.authorization ?? '')?.[1];
    if (!bearer || !authority.isValid(bearer)) {
      unauthorized++;
      response.writeHead(401, {
        'content-type': 'application/json',
        'www-authenticate': `Bearer error="invalid_token", resource_metadata="${resourceMetadata()}"`,
      });
      response.end(JSON.stringify({ error: 'invalid_token' }));
      return;
    }
    // Stateless: one SDK server per request, as the SDK's stateless example does.
    const mcp = new Server({ name: 'fake-oauth-mcp', version: '1.0.0' }, { capabilities: { tools: {} } });
    mcp.setRequestHandler(ListToolsRequestSchema, () => ({ tools: [echoTool] }));
    mcp.setRequestHandler(CallToolRequestSchema, (call) => ({
      content: [{ type: 'text', text: `Echo: ${String(call.params.arguments?.message ?? '')}` }],
    }));
    const transport = new StreamableHTTPServerTransport({ enableJsonResponse: true });
    response.on('close', () => {
      void transport.close();
      void mcp.close();
    });
    await mcp.connect(transport);
    await transport.handleRequest(request, response);
  };

  const server = createServer((request, response) => {
    const url = new URL(request.url ?? '/', base || 'http://127.0.0.1');
    const route = `${request.method} ${url.pathname}`;
    const done = (promise: Promise<void>) =>
      promise.catch((error: unknown) => {
        if (!response.headersSent)
          sendJson(response, 500, { error: 'server_error', error_description: String(error) });
      });
    if (url.pathname === '/mcp') return void done(serveMcp(request, response));
    if (route === 'GET /.well-known/oauth-protected-resource/mcp') {
      return sendJson(response, 200, { resource: `${base}/mcp`, authorization_servers: [base] });
    }
    if (route === 'GET /.well-known/oauth-authorization-server')
      return sendJson(response, 200, authority.metadata());
    if (route === 'POST /register') return void done(authority.register(request, response));
    if (route === 'GET /authorize') return authority.authorize(url, response);
    if (route === 'POST /token') return void done(authority.token(request, response));
    sendJson(response, 404, { error: 'not_found' });
  });
  base = await listen(server, '127.0.0.1', 0);

  return {
    url: `${base}/mcp`,
    record: authority.record,
    get unauthorized() {
      return unauthorized;
    },
    expireAccessTokens: () => authority.expireAccessTokens(),
    revokeRefreshTokens: () => authority.revokeRefreshTokens(),
    denyAuthorizations: () => authority.denyAuthorizations(),
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
