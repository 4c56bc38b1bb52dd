import { MacstatsError } from '@macstats/core';
import { formatDuration } from '@macstats/core/internal';

const TLS_CODE =
  /^(?:ERR_TLS_|ERR_SSL_|CERT_|UNABLE_TO_|DEPTH_ZERO_SELF_SIGNED_CERT|SELF_SIGNED_CERT_IN_CHAIN|HOSTNAME_MISMATCH|ERR_OSSL_|EPROTO$)/;

/**
 * One sentence saying why fetching `url` failed, for the model: unresolvable host, refused or
 * closed connection, TLS failure, timeout, or the refusal the guard already worded.
 */
export function describeFailure(error: unknown, url: URL, timeoutMs: number, timedOut: boolean): string {
  if (MacstatsError.isInstance(error)) return error.message;
  const where = `${url.hostname}${url.port ? `:${url.port}` : ''}`;
  if (timedOut) return `timed out after ${formatDuration(timeoutMs)} fetching ${url.href}`;
  const cause = findCode(error);
  const code = cause?.code ?? '';
  if (code === 'ENOTFOUND' || code === 'EAI_AGAIN' || code === 'EAI_NODATA' || code === 'EAI_NONAME') {
    return `could not resolve the host ${url.hostname} (${code}); check the address`;
  }
  if (code === 'ECONNREFUSED') return `the connection to ${where} was refused; nothing is listening there`;
  if (code === 'ECONNRESET' || code === 'UND_ERR_SOCKET' || code === 'EPIPE') {
    return `the server at ${where} closed the connection before answering (${code})`;
  }
  if (code === 'EHOSTUNREACH' || code === 'ENETUNREACH')
    return `${where} cannot be reached from here (${code})`;
  if (TLS_CODE.test(code)) {
    // Node 24 appends advice about --use-system-ca after a semicolon; the model needs the reason.
    return `TLS failed for ${where}: ${(cause?.message ?? code).split(';')[0]}`;
  }
  if (
    code === 'UND_ERR_CONNECT_TIMEOUT' ||
    code === 'UND_ERR_HEADERS_TIMEOUT' ||
    code === 'UND_ERR_BODY_TIMEOUT'
  ) {
    return `timed out after ${formatDuration(timeoutMs)} fetching ${url.href}`;
  }
  const message = cause?.message ?? (error instanceof Error ? error.message : String(error));
  return `fetching ${url.href} failed: ${message}`;
}

/** The innermost error in the cause chain that carries a code (undici wraps socket errors). */
function findCode(error: unknown): { code?: string; message: string } | undefined {
  let current: unknown = error;
  let found: { code?: string; message: string } | undefined;
  for (let depth = 0; depth < 5 && current instanceof Error; depth++) {
    const code = (current as { code?: unknown }).code;
    if (typeof code === 'string') found = { code, message: current.message };
    current = (current as { cause?: unknown }).cause;
  }
  return found ?? (error instanceof Error ? { message: error.message } : undefined);
}
