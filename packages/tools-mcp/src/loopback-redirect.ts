import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { mcpError } from './mcp-errors.js';

/** What the authorization server sent back to the loopback redirect. */
export interface RedirectResult {
  code: string;
  state: string | undefined;
}

/** A listener on 127.0.0.1 for one OAuth redirect (RFC 8252's loopback redirect). */
export interface LoopbackRedirect {
  /** `http://127.0.0.1:<port>/callback`. */
  url: string;
  /** Resolves with the next redirect that carries a code; rejects on an `error` redirect. */
  next(): Promise<RedirectResult>;
  close(): Promise<void>;
}

const page = (text: string) => `<!doctype html><meta charset="utf-8"><title>macstats</title><p>${text}</p>\n`;

/** Listens on `127.0.0.1:port` (0: any free port) for `GET /callback?code=…&state=…`. */
export async function listenForRedirect(port = 0): Promise<LoopbackRedirect> {
  // Redirects that arrived before anyone asked, and askers waiting for one; a step-up of
  // scope brings the browser back more than once.
  const arrived: Promise<RedirectResult>[] = [];
  const waiting: { resolve(value: RedirectResult): void; reject(error: Error): void }[] = [];
  const deliver = (outcome: RedirectResult | Error) => {
    const waiter = waiting.shift();
    if (waiter) {
      if (outcome instanceof Error) waiter.reject(outcome);
      else waiter.resolve(outcome);
      return;
    }
    const settled = outcome instanceof Error ? Promise.reject(outcome) : Promise.resolve(outcome);
    settled.catch(() => {});
    arrived.push(settled);
  };
  const server = createServer((request, response) => {
    const url = new URL(request.url ?? '/', 'http://127.0.0.1');
    if (request.method !== 'GET' || url.pathname !== '/callback') {
      response.writeHead(404, { 'content-type': 'text/plain; charset=utf-8' }).end('Not found.\n');
      return;
    }
    const error = url.searchParams.get('error');
    const code = url.searchParams.get('code');
    if (error || !code) {
      const detail = url.searchParams.get('error_description');
      const why = error ? `${error}${detail ? ` (${detail})` : ''}` : 'the redirect carried no code';
      response.writeHead(400, { 'content-type': 'text/html; charset=utf-8' });
      response.end(page('The sign-in did not succeed; see the terminal.'));
      deliver(mcpError('MCP_AUTH_FAILED', `The authorization server refused the sign-in: ${why}.`));
      return;
    }
    response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
    response.end(page('Signed in. You can close this tab.'));
    deliver({ code, state: url.searchParams.get('state') ?? undefined });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, '127.0.0.1', () => resolve());
  });
  const { port: bound } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${bound}/callback`,
    next: () =>
      arrived.shift() ?? new Promise<RedirectResult>((resolve, reject) => waiting.push({ resolve, reject })),
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
