import type { McpOAuthProvider } from './oauth-provider.js';

/**
 * True when the error, or one of its causes, is the SDK's "sign-in required" error, told by its
 * class name: the SDK is loaded on the first connection, not with this module.
 */
export function isUnauthorized(error: unknown): boolean {
  let current: unknown = error;
  for (let depth = 0; depth < 5 && current instanceof Error; depth++) {
    if (current.constructor.name === 'UnauthorizedError') return true;
    current = current.cause;
  }
  return false;
}

/** True when the error, or one of its causes, is an HTTP 403 from the server (the SDK's `code`). */
function isForbidden(error: unknown): boolean {
  let current: unknown = error;
  for (let depth = 0; depth < 5 && current instanceof Error; depth++) {
    if ((current as { code?: unknown }).code === 403) return true;
    current = current.cause;
  }
  return false;
}

/**
 * The sentence for a server that cannot be used until the user signs in, or `undefined` when
 * the error is not about sign-in: `MCP server "github" needs sign-in: run "macstats mcp login github".`
 */
export function signInFailure(
  error: unknown,
  provider: Partial<Pick<McpOAuthProvider, 'signInReason' | 'missingScope'>> | undefined,
  server: string,
  hint: ((server: string) => string) | undefined,
): string | undefined {
  if (!provider) return undefined;
  const how = hint ? `: ${hint(server)}` : '';
  // The SDK gives up on a step-up with a 403 of its own; the provider knows what was missing.
  if (provider.signInReason === 'scope' && (isUnauthorized(error) || isForbidden(error)))
    // Said at once: a login that cannot get the scope would otherwise be asked for again and again.
    return `MCP server "${server}" needs more access for this (${provider.missingScope})${how} (when signing in cannot get it, this account is not allowed it: ask the server's administrator)`;
  if (!isUnauthorized(error)) return undefined;
  return provider.signInReason === 'expired'
    ? `the sign-in to MCP server "${server}" has expired and could not be refreshed; sign in again${how}`
    : `MCP server "${server}" needs sign-in${how}`;
}
