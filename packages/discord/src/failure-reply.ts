import { MacstatsError } from '@macstats/core';
import { errorCode, UNREACHABLE_CODES } from '@macstats/core/internal';

/**
 * Whether an error thrown around an answer means the model could not be used: core's
 * `unreachable` fact, or a server that refused or never took the connection, anywhere in the
 * cause chain. A failed answer says so itself (`AgentAnswer.error.fromModel`).
 */
export function isModelFailure(failure: unknown): boolean {
  for (let current = failure, depth = 0; current && typeof current === 'object' && depth < 8; depth++) {
    if (MacstatsError.isInstance(current) && current.unreachable) return true;
    if ((current as { message?: unknown }).message === 'fetch failed') return true;
    current = (current as { cause?: unknown }).cause;
  }
  const code = errorCode(failure);
  return code !== undefined && UNREACHABLE_CODES.has(code);
}

/** Adds the hint to a reply once. */
export function withHint(text: string, hint: string): string {
  return text.includes(hint) ? text : `${text.trimEnd()} ${hint}`;
}
