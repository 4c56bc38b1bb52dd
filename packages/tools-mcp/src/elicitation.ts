import type { ElicitRequest, ElicitResult } from '@modelcontextprotocol/sdk/types.js';

/** A server's question to the user in the middle of a tool call (MCP elicitation). */
export interface McpElicitation {
  /** The server that asks. */
  server: string;
  /** The question, as the server words it. */
  message: string;
  /** The request as the server sent it (form schema, or a URL to open). */
  params: ElicitRequest['params'];
}

/** Answers a server's question: accept with content, decline, or cancel. */
export type McpElicitationHandler = (request: McpElicitation, signal: AbortSignal) => Promise<ElicitResult>;

/**
 * An elicitation handler for where nobody can answer (a scheduled run, an unattended service):
 * every question is declined, and `onDecline` hears the question and the reason, for the log.
 *
 * @example
 * ```ts
 * connectMcpServers(servers, {
 *   elicitation: createDecliningElicitation('nobody can answer during a scheduled run', (question, reason) =>
 *     logger.info({ server: question.server, question: question.message, reason }, 'MCP question declined'),
 *   ),
 * });
 * ```
 */
export function createDecliningElicitation(
  reason: string,
  onDecline?: (request: McpElicitation, reason: string) => void,
): McpElicitationHandler {
  return async (request) => {
    onDecline?.(request, reason);
    return { action: 'decline' };
  };
}
