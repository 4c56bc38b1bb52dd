import { errorFactory, MacstatsError } from '@macstats/core';

/** Codes of the errors this package throws (each is in the README's error table). */
export type McpErrorCode =
  | 'MCP_AUTH_FAILED'
  | 'MCP_AUTH_REQUIRED'
  | 'MCP_CLOSED'
  | 'MCP_CONFIG_INVALID'
  | 'MCP_CONNECT_FAILED'
  | 'MCP_SERVER_DOWN'
  | 'MCP_TIMEOUT';

/** Makes this package's errors: the compiler takes only the codes of {@link McpErrorCode}. */
export const mcpError = errorFactory<McpErrorCode>();

/** Whether a server cannot be used until the user signs in (`macstats mcp login <server>`). */
export function needsSignIn(error: unknown): error is MacstatsError {
  return MacstatsError.isInstance(error) && error.code === 'MCP_AUTH_REQUIRED';
}
