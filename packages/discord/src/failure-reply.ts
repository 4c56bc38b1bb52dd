import { MacstatsError } from '@macstats/core';
import { UNREACHABLE_CODES } from '@macstats/core/internal';

/**
 * Whether an error thrown around an answer means the model could not be used: core's
 * `unreachable` fact, or a server that refused or never took the connection, anywhere in the
 * cause chain. A failed answer says so itself (`AgentAnswer.error.fromModel`).
 */
export function isModelFailure(failure: unknown): boolean {
  for (let current = failure, depth = 0; current && typeof current === 'object' && depth < 8; depth++) {
    if (MacstatsError.isInstance(current) && current.unreachable) return true;
    const { code, message, cause } = current as { code?: unknown; message?: unknown; cause?: unknown };
    if (message === 'fetch failed' || (typeof code === 'string' && UNREACHABLE_CODES.has(code))) return true;
    current = cause;
  }
  return false;
}

/** Adds the hint to a reply once. */
export function withHint(text: string, hint: string): string {
  return text.includes(hint) ? text : `${text.trimEnd()} ${hint}`;
}
