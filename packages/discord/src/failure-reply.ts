import { MacstatsError } from '@macstats/core';

const UNREACHABLE_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ENOTFOUND',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'EAI_AGAIN',
  'UND_ERR_CONNECT_TIMEOUT',
  'UND_ERR_SOCKET',
]);

/**
 * Whether a failure means the model could not be used: an `OLLAMA_*` code (core's errors and
 * `error` events), a connection refused or lost anywhere in the cause chain, or an HTTP error
 * from the Ollama client (`status_code`).
 */
export function isModelFailure(failure: unknown): boolean {
  let current: unknown = failure;
  for (let depth = 0; depth < 8 && current !== undefined && current !== null; depth++) {
    if (typeof current === 'string') return current.startsWith('OLLAMA_');
    if (typeof current !== 'object') return false;
    const { code, status_code: statusCode, message, cause } = current as Record<string, unknown>;
    if (typeof code === 'string' && (code.startsWith('OLLAMA_') || UNREACHABLE_CODES.has(code))) return true;
    if (MacstatsError.isInstance(current) && current.code.startsWith('OLLAMA_')) return true;
    if (typeof statusCode === 'number') return true;
    if (message === 'fetch failed') return true;
    current = cause;
  }
  return false;
}

/** Adds the hint to a reply once. */
export function withHint(text: string, hint: string): string {
  return text.includes(hint) ? text : `${text.trimEnd()} ${hint}`;
}
