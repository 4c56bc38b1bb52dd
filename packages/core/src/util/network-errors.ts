/** Error codes of a server that cannot be reached at all (nothing listens, no route, no name). */
export const UNREACHABLE_CODES: ReadonlySet<string> = new Set([
  'ECONNREFUSED',
  'ENOTFOUND',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'EAI_AGAIN',
  'EADDRNOTAVAIL',
  // undici gave up connecting (a host that drops the connection attempt).
  'UND_ERR_CONNECT_TIMEOUT',
]);

/** Error codes of a connection that broke after it was made. */
export const CONNECTION_LOST_CODES: ReadonlySet<string> = new Set([
  'ECONNRESET',
  'UND_ERR_SOCKET',
  'EPIPE',
  'UND_ERR_CLOSED',
]);

/** The system or undici code of an error or of one of its causes (`ECONNREFUSED`), if any. */
export function errorCode(error: unknown): string | undefined {
  for (let current = error, depth = 0; current && depth < 6; depth++) {
    const code = (current as { code?: unknown }).code;
    if (typeof code === 'string' && /^[A-Z_]+$/.test(code)) return code;
    current = (current as { cause?: unknown }).cause;
  }
  return undefined;
}
