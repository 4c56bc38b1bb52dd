import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import type { IncomingMessage } from 'node:http';

/** The `Host` values a server bound to 127.0.0.1 on `port` answers to: `127.0.0.1:port`, `localhost:port`. */
export function loopbackHosts(port: number): ReadonlySet<string> {
  return new Set([`127.0.0.1:${port}`, `localhost:${port}`]);
}

/** The origins of pages served by such a server: `http://` plus each of {@link loopbackHosts}. */
export function loopbackOrigins(port: number): ReadonlySet<string> {
  return new Set([...loopbackHosts(port)].map((host) => `http://${host}`));
}

/**
 * True when the request's `Host` header names this loopback server. DNS rebinding: a foreign
 * name that resolves to 127.0.0.1 still carries its own name in `Host`, and is refused.
 */
export function isLoopbackHost(request: IncomingMessage, port: number): boolean {
  return loopbackHosts(port).has((request.headers.host ?? '').toLowerCase());
}

/** True when `origin` is one of this server's own origins (an absent Origin is the caller's to judge). */
export function isLoopbackOrigin(origin: string | undefined, port: number): boolean {
  return origin !== undefined && loopbackOrigins(port).has(origin.toLowerCase());
}

/** A random token for one launch: 256 bits, base64url. */
export function createLaunchToken(): string {
  return randomBytes(32).toString('base64url');
}

/** Compares candidates with `token` in constant time (both are hashed first, so lengths never leak). */
export function createTokenMatcher(token: string): (candidate: string | undefined) => boolean {
  const expected = digest(token);
  return (candidate) => candidate !== undefined && timingSafeEqual(digest(candidate), expected);
}

/** The token of an `Authorization: Bearer <token>` header, if there is one. */
export function bearerToken(request: IncomingMessage): string | undefined {
  const match = /^Bearer\s+(\S+)\s*$/i.exec(request.headers.authorization ?? '');
  return match?.[1];
}

function digest(value: string): Buffer {
  return createHash('sha256').update(value).digest();
}
