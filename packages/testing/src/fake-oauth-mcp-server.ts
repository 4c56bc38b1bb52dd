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
const privateNotesTool = {
  name: 'private_notes',
  description: 'Searches the private notes (needs the notes:private scope).',
  inputSchema: { type: 'object', properties: { query: { type: 'string' } }, required: ['query'] },
  annotations: { readOnlyHint: true },
} as const;

/** The scope a token needs for anything (what the 401 names), and the one `private_notes` needs besides. */
export const FAKE_OAUTH_SCOPES = { base: 'notes:read', extra: 'notes:private' } as const;

async function readBody(request: IncomingMessage): Promise<unknown> {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  const text = Buffer.concat(chunks).toString('utf8');
  return text === '' ? undefined : JSON.parse(text);
}

/** Whether a JSON-RPC body (one message or a batch) calls `private_notes`. */
function callsPrivateNotes(body: unknown): boolean {
  const messages = Array.isArray(body) ? body : [body];
  return messages.some(
    (message) =>
      (message as { method?: unknown })?.method === 'tools/call' &&
      (message as { params?: { name?: unknown } }).params?.name === privateNotesTool.name,
  );
}

/** A running MCP server that requires the MCP authorization flow, with its own authorization server. */
export interface FakeOAuthMcpServer {
  /** The MCP endpoint, `http://127.0.0.1:<port>/mcp`. */
  url: string;
  /** Registrations, grants and resource indicators seen so far. */
  record: FakeOAuthRecord;
  /** MCP requests refused for a missing or expired token. */
  unauthorized: number;
  /** MCP requests refused with 403 `insufficient_scope` (a `private_notes` call without `notes:private`). */
  insufficientScope: number;
  /** Expires every access token; a refresh token still gets a new one. */
  expireAccessTokens(): void;
  /** Revokes every refresh token: after the next expiry the user must sign in again. */
  revokeRefreshTokens(): void;
  /** The user refuses every sign-in from now on: `/authorize` redirects with `access_denied`. */
  denyAuthorizations(): void;
  /** Registers a client ahead of time (any loopback redirect; with a secret, a confidential one). */
  preRegister(clientId: string, clientSecret?: string): void;
  close(): Promise<void>;
}

/**
 * Starts, on 127.0.0.1 and a free port, an MCP server (the official SDK's, over Streamable
 * HTTP, with the tools `echo {message}` and `private_notes {query}`) that answers 401 without a valid
 * bearer token and 403 `insufficient_scope` to a `private_notes` call whose token lacks `notes:private`, and the
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
  let insufficientScope = 0;
  const resourceMetadata = () => `${base}/.well-known/oauth-protected-resource/mcp`;

  const serveMcp = async (request: IncomingMessage, response: ServerResponse) => {
    const bearer = /^Bearer (.+)$/.exec(request.headers.authorization ?? '')?.[1];
    if (!bearer || !authority.isValid(bearer)) {
      unauthorized++;
      response.writeHead(401, {
        'content-type': 'application/json',
        'www-authenticate': `Bearer error="invalid_token", scope="${FAKE_OAUTH_SCOPES.base}", resource_metadata="${resourceMetadata()}"`,
      });
      response.end(JSON.stringify({ error: 'invalid_token' }));
      return;
    }
    const body = request.method === 'POST' ? await readBody(request) : undefined;
    // Step-up (the MCP authorization spec): a call that needs more than the token was granted is
    // refused with 403 and the scope it needs, and the client asks the user for that much.
    if (callsPrivateNotes(body) && !authority.scopesOf(bearer).includes(FAKE_OAUTH_SCOPES.extra)) {
      insufficientScope++;
      const needed = `${FAKE_OAUTH_SCOPES.base} ${FAKE_OAUTH_SCOPES.extra}`;
      response.writeHead(403, {
        'content-type': 'application/json',
        'www-authenticate': `Bearer error="insufficient_scope", scope="${needed}", resource_metadata="${resourceMetadata()}"`,
      });
      response.end(JSON.stringify({ error: 'insufficient_scope' }));
      return;
    }
    // Stateless: one SDK server per request, as the SDK's stateless example does.
    const mcp = new Server({ name: 'fake-oauth-mcp', version: '1.0.0' }, { capabilities: { tools: {} } });
    mcp.setRequestHandler(ListToolsRequestSchema, () => ({ tools: [echoTool, privateNotesTool] }));
    mcp.setRequestHandler(CallToolRequestSchema, (call) => ({
      content: [
        {
          type: 'text',
          text:
            call.params.name === privateNotesTool.name
              ? `Private notes matching "${String(call.params.arguments?.query ?? '')}": none`
              : `Echo: ${String(call.params.arguments?.message ?? '')}`,
        },
      ],
    }));
    const transport = new StreamableHTTPServerTransport({ enableJsonResponse: true });
    response.on('close', () => {
      void transport.close();
      void mcp.close();
    });
    await mcp.connect(transport);
    await transport.handleRequest(request, response, body);
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
    get insufficientScope() {
      return insufficientScope;
    },
    expireAccessTokens: () => authority.expireAccessTokens(),
    revokeRefreshTokens: () => authority.revokeRefreshTokens(),
    denyAuthorizations: () => authority.denyAuthorizations(),
    preRegister: (clientId, clientSecret) => authority.preRegister(clientId, clientSecret),
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
