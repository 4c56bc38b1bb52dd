import type { ContainmentRule } from './context-labels.js';

/** What the agent asks the user to approve: one call, and why it needs approval. */
export interface ApprovalRequest {
  tool: string;
  argument: string;
  arguments?: Record<string, unknown> | undefined;
  /** `send`: it would send data where the user did not say; `persist`: it would change saved state. */
  rule: ContainmentRule;
  /** One sentence for the user: what the call would do and what is in the context. */
  reason: string;
  /** The conversation the answer belongs to, when it has one. */
  conversationId?: string | undefined;
  /** Aborts when the answer is stopped or the approval times out: close the prompt then. */
  signal: AbortSignal;
  /** How long the user has, in milliseconds; past it the call is denied. */
  timeoutMs: number;
}

/**
 * Asks the user whether a call may run. Resolve `true` to allow it; `false`, a rejection or no
 * answer within `timeoutMs` denies it.
 */
export type ApproveFunction = (request: ApprovalRequest) => Promise<boolean>;
