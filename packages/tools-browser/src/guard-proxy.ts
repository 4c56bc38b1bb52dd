import http, { type IncomingHttpHeaders } from 'node:http';
import net from 'node:net';
import type { Duplex } from 'node:stream';
import { type HostPolicy, type HostResolver, resolveChecked } from '@macstats/address-policy';
import { type Logger, MacstatsError } from '@macstats/core';
import { browserError } from './error-codes.js';

/** A loopback HTTP proxy every request of one browser context goes through. */
export interface GuardProxy {
  /** `http://127.0.0.1:<port>`, for Playwright's `proxy.server`. */
  url: string;
  close(): Promise<void>;
}

/** Options of {@link startGuardProxy}. */
export interface GuardProxyOptions {
  policy: HostPolicy;
  resolver: HostResolver;
  logger: Logger;
  /** Called with the URL (or `host:port` of a tunnel) and the sentence of every refused request. */
  onRefused(target: string, reason: string): void;
  /**
   * Containment's check of the navigation under way (core's `RedirectCheck`), while an action
   * whose send it bounds runs: each page request (and each HTTPS tunnel, by its origin) passes it.
   */
  navigationCheck?(): ((url: string) => string | undefined) | undefined;
}

// Headers that describe the hop to the proxy, not the request: never forwarded.
const HOP_HEADERS = new Set(['proxy-connection', 'proxy-authorization', 'connection', 'keep-alive']);

/**
 * Starts the proxy that enforces the address policy on everything a page asks for:
 * navigations, each redirect hop, frames, images, scripts, fetch/XHR (plain requests), and
 * HTTPS and WebSocket (CONNECT tunnels). Each host is resolved once here and the connection goes
 * to exactly the checked address, so DNS rebinding gets no second answer. Chromium is told to
 * send loopback through it too (Playwright removes Chromium's implicit loopback bypass).
 */
export async function startGuardProxy(options: GuardProxyOptions): Promise<GuardProxy> {
  const { policy, resolver, logger } = options;
  const sockets = new Set<Duplex>();
  const track = (socket: Duplex) => {
    sockets.add(socket);
    socket.once('close', () => sockets.delete(socket));
  };

  const check = (host: string) =>
    resolveChecked(host, {
      policy,
      resolver,
      blocked: (sentence) => browserError('BROWSER_BLOCKED', sentence),
    });
  const refusalOf = (target: string, error: unknown): string => {
    const reason = MacstatsError.isInstance(error)
      ? error.message
      : `could not resolve ${target} (${(error as NodeJS.ErrnoException)?.code ?? 'error'})`;
    if (MacstatsError.isInstance(error)) options.onRefused(target, reason);
    logger.info({ target, reason }, 'browser: request refused');
    return reason;
  };

  const server = http.createServer((request, response) => {
    let target: URL;
    try {
      target = new URL(request.url ?? '');
    } catch {
      response.writeHead(400, { 'content-type': 'text/plain; charset=utf-8' }).end('not a proxy request');
      return;
    }
    const contained = isNavigation(request.headers) ? options.navigationCheck?.()?.(target.href) : undefined;
    if (contained) {
      options.onRefused(target.href, contained);
      response.writeHead(403, { 'content-type': 'text/plain; charset=utf-8' }).end(contained);
      return;
    }
    if (target.protocol !== 'http:') {
      response
        .writeHead(400, { 'content-type': 'text/plain; charset=utf-8' })
        .end('only http through the proxy');
      return;
    }
    check(target.hostname).then(
      ([address]) => {
        const upstream = http.request(
          {
            host: address?.address,
            family: address?.family,
            port: target.port || 80,
            method: request.method,
            path: `${target.pathname}${target.search}`,
            headers: forwardHeaders(request.headers),
            setHost: false,
            agent: false,
          },
          (answer) => {
            response.writeHead(
              answer.statusCode ?? 502,
              answer.statusMessage,
              withoutHopHeaders(answer.rawHeaders),
            );
            answer.pipe(response);
          },
        );
        upstream.on('error', () => response.destroy());
        response.on('close', () => upstream.destroy());
        request.pipe(upstream);
      },
      (error: unknown) => {
        const reason = refusalOf(target.href, error);
        response.writeHead(403, { 'content-type': 'text/plain; charset=utf-8' }).end(reason);
      },
    );
  });

  const tunnel = (request: http.IncomingMessage, client: Duplex, head: Buffer, preface?: string) => {
    track(client);
    client.on('error', () => client.destroy());
    let target: URL;
    try {
      target = new URL(preface === undefined ? `http://${request.url}` : (request.url ?? ''));
    } catch {
      client.end('HTTP/1.1 400 Bad Request\r\n\r\n');
      return;
    }
    const port = Number(target.port || (target.protocol === 'https:' ? 443 : 80));
    // A tunnel shows only its host: while a bounded navigation runs, its origin must pass.
    const origin = preface === undefined ? `https://${target.host}/` : target.href;
    const contained = options.navigationCheck?.()?.(origin);
    if (contained) {
      options.onRefused(target.host, contained);
      client.end(`HTTP/1.1 403 Forbidden\r\ncontent-type: text/plain\r\n\r\n${contained}`);
      return;
    }
    check(target.hostname).then(
      ([address]) => {
        const upstream = net.connect({ host: address?.address ?? '', port });
        track(upstream);
        upstream.once('connect', () => {
          if (preface === undefined) client.write('HTTP/1.1 200 Connection Established\r\n\r\n');
          else upstream.write(preface);
          if (head.length > 0) upstream.write(head);
          upstream.pipe(client);
          client.pipe(upstream);
        });
        upstream.on('error', () => client.destroy());
        client.on('close', () => upstream.destroy());
      },
      (error: unknown) => {
        const reason = refusalOf(preface === undefined ? `${target.host}` : target.href, error);
        client.end(`HTTP/1.1 403 Forbidden\r\ncontent-type: text/plain\r\n\r\n${reason}`);
      },
    );
  };

  server.on('connect', (request, client, head) => tunnel(request, client, head));
  // A WebSocket over plain ws:// asked in absolute form: forwarded as it came, after the check.
  server.on('upgrade', (request, client, head) => tunnel(request, client, head, rawRequest(request)));
  server.on('connection', track);

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const { port } = server.address() as net.AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}

/** A page navigation, as Chromium marks it (Sec-Fetch-Mode where it sends it, else Upgrade-Insecure-Requests). */
function isNavigation(headers: IncomingHttpHeaders): boolean {
  return headers['sec-fetch-mode'] === 'navigate' || headers['upgrade-insecure-requests'] === '1';
}

function forwardHeaders(headers: IncomingHttpHeaders): IncomingHttpHeaders {
  const kept: IncomingHttpHeaders = {};
  for (const [name, value] of Object.entries(headers)) if (!HOP_HEADERS.has(name)) kept[name] = value;
  return kept;
}

function withoutHopHeaders(raw: string[]): string[] {
  const kept: string[] = [];
  for (let index = 0; index + 1 < raw.length; index += 2) {
    const name = raw[index] ?? '';
    if (!HOP_HEADERS.has(name.toLowerCase())) kept.push(name, raw[index + 1] ?? '');
  }
  return kept;
}

function rawRequest(request: http.IncomingMessage): string {
  const target = new URL(request.url ?? '/', 'http://placeholder');
  const lines = [`${request.method} ${target.pathname}${target.search} HTTP/1.1`];
  for (let index = 0; index + 1 < request.rawHeaders.length; index += 2) {
    const name = request.rawHeaders[index] ?? '';
    if (name.toLowerCase() !== 'proxy-connection') lines.push(`${name}: ${request.rawHeaders[index + 1]}`);
  }
  return `${lines.join('\r\n')}\r\n\r\n`;
}
