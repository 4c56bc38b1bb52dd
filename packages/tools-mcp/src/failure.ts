// The SDK's `McpError` codes for a closed link and a request timeout (JSON-RPC server errors).
// Matched by value and by the error's name, not by importing the SDK: this module is loaded with
// the package, the SDK only on the first connection.
const CONNECTION_CLOSED = -32000;
const REQUEST_TIMEOUT = -32001;

/** The code of the SDK's `McpError`, else undefined. */
function mcpErrorCode(error: unknown): number | undefined {
  if (!(error instanceof Error) || error.name !== 'McpError') return undefined;
  const code = (error as { code?: unknown }).code;
  return typeof code === 'number' ? code : undefined;
}

const transientCodes = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'EPIPE',
  'ETIMEDOUT',
  'EAI_AGAIN',
  'UND_ERR_SOCKET',
]);
const transientText =
  /connection closed|not connected|econnrefused|econnreset|epipe|socket hang up|fetch failed|other side closed|HTTP (404|502|503|504)\b|session not found|no valid session/i;

function codeOf(error: unknown): string | undefined {
  let current: unknown = error;
  for (let depth = 0; depth < 5 && current instanceof Error; depth++) {
    const code = (current as { code?: unknown }).code;
    if (typeof code === 'string') return code;
    current = current.cause;
  }
  return undefined;
}

function messagesOf(error: unknown): string {
  const parts: string[] = [];
  let current: unknown = error;
  for (let depth = 0; depth < 5 && current !== undefined; depth++) {
    if (current instanceof AggregateError) parts.push(...current.errors.map((inner) => messagesOf(inner)));
    parts.push(current instanceof Error ? current.message : String(current));
    current = current instanceof Error ? current.cause : undefined;
  }
  return parts.join(' | ');
}

/**
 * True when the link to the server failed rather than the server refusing the request: the
 * server died or hung up, the connection was refused or reset, an HTTP session was lost. Such
 * a call is worth one retry on a fresh connection. A timeout is not: it has spent the budget.
 */
export function isTransientFailure(error: unknown): boolean {
  const mcpCode = mcpErrorCode(error);
  if (mcpCode === CONNECTION_CLOSED) return true;
  if (mcpCode === REQUEST_TIMEOUT) return false;
  const code = codeOf(error);
  if (code !== undefined && transientCodes.has(code)) return true;
  return transientText.test(messagesOf(error));
}

/** True for the SDK's request timeout. */
export function isTimeout(error: unknown): boolean {
  return mcpErrorCode(error) === REQUEST_TIMEOUT;
}

/**
 * One readable sentence fragment for a failure, for the model and the logs: the SDK's
 * `MCP error -32602:` prefixes go, a missing program is named as such.
 */
export function failureReason(error: unknown): string {
  const code = codeOf(error);
  if (code === 'ENOENT' && error instanceof Error && /spawn/.test(error.message)) {
    const program = /spawn (\S+)/.exec(error.message)?.[1] ?? 'the command';
    return `the program ${program} was not found`;
  }
  if (code === 'ECONNREFUSED') return 'connection refused';
  if (mcpErrorCode(error) === CONNECTION_CLOSED) {
    return 'the server closed the connection';
  }
  const text = error instanceof Error ? error.message : String(error);
  // undici says only "fetch failed"; the reason is further down, below any wrapper that repeats it.
  const cause = text === 'fetch failed' ? causeBeyond(error, text) : undefined;
  const detailed = cause ? `fetch failed (${cause})` : text;
  return detailed.replace(/^MCP error -?\d+:\s*/, '').trim() || 'unknown error';
}

/** The first message down the error's causes that says more than `text`. */
function causeBeyond(error: unknown, text: string): string | undefined {
  let current = error instanceof Error ? error.cause : undefined;
  for (let depth = 0; depth < 5 && current instanceof Error; depth++) {
    if (current.message && current.message !== text) return current.message;
    current = current.cause;
  }
  return undefined;
}
