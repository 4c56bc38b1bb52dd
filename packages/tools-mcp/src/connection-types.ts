import type { McpElicitationHandler } from './elicitation.js';

/** Where a connection stands. `down` means it will (re)start the server on the next use. */
export type McpConnectionStatus = 'idle' | 'connecting' | 'connected' | 'down' | 'closed';

/** Options of one `callTool`. */
export interface McpCallOptions {
  /** Aborts the call; an aborted call rejects with the signal's reason and is never retried. */
  signal?: AbortSignal;
  /** Overrides the connection's `callTimeoutMs` for this call. */
  timeoutMs?: number;
  /** The name the model used, for messages; default the tool's own name. */
  displayName?: string;
  /**
   * Answers the questions the server asks during this call (the asker's approval surface, say);
   * used when the connection offers elicitation and this is its only call under way. Default:
   * the connection's `elicitation`.
   */
  elicitation?: McpElicitationHandler;
}
