import { createHash } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Duplex } from 'node:stream';

/** A page server on 127.0.0.1 that records what it was asked for. */
export interface TestSite {
  origin: string;
  port: number;
  /** Paths requested, in order. */
  seen: string[];
  close(): Promise<void>;
}

type Pages = Record<string, (request: IncomingMessage, response: ServerResponse, body: string) => void>;

/** Serves `pages` by path (charset utf-8 on HTML); anything else is a 404. */
export async function startSite(pages: (site: { origin: string; port: number }) => Pages): Promise<TestSite> {
  const seen: string[] = [];
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  const origin = `http://127.0.0.1:${port}`;
  const table = pages({ origin, port });
  server.on('request', (request, response) => {
    const path = (request.url ?? '/').replace(/^https?:\/\/[^/]+/, '');
    seen.push(path);
    let body = '';
    request.setEncoding('utf8');
    request.on('data', (chunk: string) => {
      body += chunk;
    });
    request.on('end', () => {
      const handler = table[path.split('?')[0] ?? '/'];
      if (handler) handler(request, response, body);
      else response.writeHead(404, { 'content-type': 'text/plain' }).end('not found');
    });
  });
  // A WebSocket handshake is recorded like a page, then answered so the page sees it open.
  // Upgraded sockets leave the server's connections: they are closed with the site.
  const upgraded = new Set<Duplex>();
  server.on('upgrade', (request, socket) => {
    upgraded.add(socket);
    socket.once('close', () => upgraded.delete(socket));
    seen.push(request.url ?? '/');
    const key = String(request.headers['sec-websocket-key'] ?? '');
    const accept = createHash('sha1').update(`${key}258EAFA5-E914-47DA-95CA-C5AB0DC85B11`).digest('base64');
    socket.write(
      `HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Accept: ${accept}\r\n\r\n`,
    );
  });
  return {
    origin,
    port,
    seen,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        for (const socket of upgraded) socket.destroy();
        server.close(() => resolve());
      }),
  };
}

/** Answers with an HTML page. */
export function html(markup: string) {
  return (_request: IncomingMessage, response: ServerResponse) => {
    response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(markup);
  };
}

/** A resolver that answers every name in `table` with its address, as the system's would. */
export function mapHosts(table: Record<string, string>) {
  return async (hostname: string) => {
    const address = table[hostname];
    if (!address) throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname}`), { code: 'ENOTFOUND' });
    return [{ address, family: 4 }];
  };
}
