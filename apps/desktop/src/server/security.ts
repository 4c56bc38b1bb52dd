import type { IncomingMessage } from 'node:http';
import {
  createLaunchToken,
  createTokenMatcher,
  isLoopbackHost,
  isLoopbackOrigin,
} from '@macstats/loopback-guard';

/** Why a request was refused, with the status to answer and one sentence for the body. */
export interface Refusal {
  status: number;
  message: string;
}

/** What the request is, as far as the guard cares. */
export type RequestKind = 'page' | 'stream' | 'read' | 'write';

/**
 * The per-launch guard of the local server: a random token, the Host names it answers to,
 * and the origin it trusts. One instance per running dashboard.
 */
export interface RequestGuard {
  /** The random token of this launch (base64url, 256 bits). */
  readonly token: string;
  /** The cookie that carries the token after the first visit. */
  readonly cookieName: string;
  /** `Set-Cookie` value that stores the token in the browser. */
  cookieHeader(): string;
  /** Checks one request; `undefined` means it may pass. */
  check(request: IncomingMessage, kind: RequestKind, url: URL): Refusal | undefined;
  /** True when the request carries the token in the `token` query parameter. */
  hasQueryToken(url: URL): boolean;
}

/** Creates the guard for a server bound to 127.0.0.1 on `port`. */
export function createRequestGuard(port: number, token = createLaunchToken()): RequestGuard {
  const cookieName = `macstats_${port}`;
  const tokenMatches = createTokenMatcher(token);
  const allowedOrigin = (origin: string) => isLoopbackOrigin(origin, port);

  return {
    token,
    cookieName,
    cookieHeader: () => `${cookieName}=${token}; Path=/; HttpOnly; SameSite=Strict`,
    hasQueryToken: (url) => tokenMatches(url.searchParams.get('token') ?? undefined),
    check(request, kind, url) {
      // DNS rebinding: a foreign name that resolves to 127.0.0.1 still carries its own Host.
      if (!isLoopbackHost(request, port)) {
        return { status: 421, message: `This dashboard answers only at http://127.0.0.1:${port}.` };
      }
      const fromQuery = kind === 'page' && tokenMatches(url.searchParams.get('token') ?? undefined);
      if (!fromQuery && !readCookies(request.headers.cookie, cookieName).some(tokenMatches)) {
        return {
          status: 401,
          message: 'This dashboard needs the token of this launch: open the URL printed in the terminal.',
        };
      }
      const origin = request.headers.origin;
      const site = header(request, 'sec-fetch-site');
      if (kind === 'write') {
        // A state-changing request must prove where it comes from; browsers always send Origin on POST.
        if (origin === undefined || !allowedOrigin(origin)) {
          return {
            status: 403,
            message: 'Requests that change something must come from the dashboard page.',
          };
        }
        return undefined;
      }
      if (origin !== undefined && !allowedOrigin(origin)) {
        return { status: 403, message: 'Requests from other web pages are refused.' };
      }
      if (kind === 'stream') {
        // Same-origin EventSource sends no Origin; the browser's Sec-Fetch-Site says where it came from.
        if (origin === undefined && site !== 'same-origin') {
          return { status: 403, message: 'The live stream is only for the dashboard page.' };
        }
        return undefined;
      }
      if (site !== undefined && site !== 'same-origin' && site !== 'none') {
        // Another local site (127.0.0.1 on another port is "same-site") may not embed our data;
        // a top-level visit to the page itself is fine: the token guards it and framing is refused.
        const navigating = header(request, 'sec-fetch-mode') === 'navigate';
        if (!(kind === 'page' && navigating)) {
          return { status: 403, message: 'Requests from other web pages are refused.' };
        }
      }
      return undefined;
    },
  };
}

/** Headers every response carries: no caching, no framing, no sniffing, no cross-origin reads. */
export const SECURITY_HEADERS: Readonly<Record<string, string>> = {
  'Cache-Control': 'no-store',
  'X-Content-Type-Options': 'nosniff',
  'X-Frame-Options': 'DENY',
  'Referrer-Policy': 'no-referrer',
  'Cross-Origin-Resource-Policy': 'same-origin',
  'Cross-Origin-Opener-Policy': 'same-origin',
};

/** The page's Content-Security-Policy: only its own scripts, its own origin for data, no frames. */
export const PAGE_CSP = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' data:",
  "connect-src 'self'",
  "worker-src 'self'",
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
].join('; ');

/**
 * The RUN_JS worker's own policy (a worker script served with its own CSP gets it): code may be
 * evaluated, but nothing may be fetched, imported, or spawned.
 */
export const WORKER_CSP = "default-src 'none'; script-src 'unsafe-eval'";

function header(request: IncomingMessage, name: string): string | undefined {
  const value = request.headers[name];
  return Array.isArray(value) ? value[0] : value;
}

/**
 * Every value of one cookie name. A page on another port of 127.0.0.1 can set a cookie of the
 * same name (cookies ignore ports); it cannot know the token, so any matching value is accepted.
 */
export function readCookies(cookieHeader: string | undefined, name: string): string[] {
  if (!cookieHeader) return [];
  const found: string[] = [];
  for (const part of cookieHeader.split(';')) {
    const index = part.indexOf('=');
    if (index !== -1 && part.slice(0, index).trim() === name) found.push(part.slice(index + 1).trim());
  }
  return found;
}
