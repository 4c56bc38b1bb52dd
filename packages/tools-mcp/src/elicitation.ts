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

/**
 * Routes a connection's questions to the call under way: `during` lends a call's own handler
 * (its asker's approval surface) while it runs. With exactly one call under way on the connection
 * the question goes to its handler; with none, or several (nobody can tell which call asks), or a
 * call that lent none, to `fallback`.
 */
export class ElicitationRouter {
  readonly #calls = new Set<{ handler: McpElicitationHandler | undefined }>();
  readonly #fallback: McpElicitationHandler;

  constructor(fallback: McpElicitationHandler) {
    this.#fallback = fallback;
  }

  /** The connection's handler: offered to the server. */
  readonly answer: McpElicitationHandler = (request, signal) => {
    const [only, ...others] = this.#calls;
    return ((others.length === 0 ? only?.handler : undefined) ?? this.#fallback)(request, signal);
  };

  /** Runs `work` with `handler` answering the questions asked meanwhile. */
  async during<T>(handler: McpElicitationHandler | undefined, work: () => Promise<T>): Promise<T> {
    const call = { handler };
    this.#calls.add(call);
    try {
      return await work();
    } finally {
      this.#calls.delete(call);
    }
  }
}
