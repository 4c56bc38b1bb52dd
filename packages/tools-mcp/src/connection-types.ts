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
}
