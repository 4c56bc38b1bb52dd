/**
 * Defaults of every option of this package, in one place.
 *
 * @example
 * ```ts
 * connectMcp(server, { callTimeoutMs: MCP_DEFAULTS.callTimeoutMs * 2 });
 * ```
 */
export const MCP_DEFAULTS = {
  /** Longest wait for one tool call, retry included: 30 s. */
  callTimeoutMs: 30_000,
  /** Longest wait to start a server and finish the MCP handshake and the first `tools/list`: 30 s. */
  connectTimeoutMs: 30_000,
  /** Delay before the second restart of a server that keeps failing; it doubles each time after. */
  restartBackoffMs: 1_000,
  /** Longest delay between restart attempts of a failing server: 60 s. */
  maxRestartBackoffMs: 60_000,
  /** Longest result text handed to the model; the rest is cut with a note. */
  maxResultChars: 20_000,
  /** Longest tool description line in the model's tool list. */
  maxDescriptionChars: 160,
  /** How the client names itself to servers. */
  clientName: 'macstats-agent',
  /** Version the client reports to servers. */
  clientVersion: '0.1.0',
} as const;
