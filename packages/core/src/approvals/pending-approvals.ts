import type { ApprovalAnswer, ApprovalRequest, ApprovalScope, ContainmentRule } from '../types.js';

/** An approval card waiting for an answer, as every surface lists it. */
export interface PendingApproval {
  /** Short: what `/approve`-style answers and the surfaces' buttons name. */
  id: string;
  tool: string;
  argument: string;
  rule: ContainmentRule;
  reason: string;
  conversationId?: string | undefined;
  /** What a remembered answer would cover, and the widest one allowed (`remember`). */
  scope?: ApprovalScope | undefined;
  /** Where it was asked (`discord`, `dashboard`, `terminal`). */
  where: string;
  askedAt: Date;
  /** Past this moment the call is denied (the agent's approval timeout). */
  expiresAt: Date;
}

/** How a pending approval ended: a person's answer, or nobody in time. */
export type ApprovalOutcome = ApprovalAnswer | 'expired';

/** What the registry reports to every surface showing a copy of a card. */
export type PendingApprovalEvent =
  | { type: 'opened'; approval: PendingApproval }
  | { type: 'answered'; approval: PendingApproval; outcome: ApprovalOutcome; by?: string | undefined };

/** What `answer` did: resolved the card, found it answered (or expired) already, or knows no such id. */
export type AnswerResult = 'answered' | 'already-answered' | 'unknown';

/** The approvals waiting for an answer in one process, listed and answered from every surface. */
export interface PendingApprovals {
  /**
   * Registers a card for `request`; `answered` resolves with the first answer given anywhere,
   * or `deny` when the request's signal aborts (its time is up or the answer was stopped).
   */
  open(
    request: ApprovalRequest,
    where: string,
  ): { approval: PendingApproval; answered: Promise<ApprovalAnswer> };
  /** Answers a card once; a second answer, anywhere, gets `already-answered`. */
  answer(id: string, answer: ApprovalAnswer, by?: string): AnswerResult;
  /** The cards waiting now, oldest first. */
  list(): PendingApproval[];
  /** How a recently closed card ended (the last 200 are kept), for a late button press. */
  outcome(id: string): ApprovalOutcome | undefined;
  /** Calls `listener` on every card opened or answered; returns the unsubscribe. */
  subscribe(listener: (event: PendingApprovalEvent) => void): () => void;
}

const KEPT_OUTCOMES = 200;

/**
 * A registry of pending approvals. Each surface that asks registers its card here and shows
 * `approval.id`; any surface may answer; every copy learns the outcome through `subscribe`.
 *
 * @example
 * const pending = createPendingApprovals();
 * const { approval, answered } = pending.open(request, 'terminal');
 * pending.answer(approval.id, 'once');
 */
export function createPendingApprovals(options: { now?: () => Date } = {}): PendingApprovals {
  const now = options.now ?? (() => new Date());
  const waiting = new Map<string, { approval: PendingApproval; resolve: (answer: ApprovalAnswer) => void }>();
  const closed = new Map<string, ApprovalOutcome>();
  const listeners = new Set<(event: PendingApprovalEvent) => void>();

  function emit(event: PendingApprovalEvent): void {
    for (const listener of listeners) listener(event);
  }
  function close(id: string, outcome: ApprovalOutcome, by?: string): boolean {
    const entry = waiting.get(id);
    if (!entry) return false;
    waiting.delete(id);
    closed.set(id, outcome);
    if (closed.size > KEPT_OUTCOMES) closed.delete(closed.keys().next().value as string);
    entry.resolve(outcome === 'expired' ? 'deny' : outcome);
    emit({ type: 'answered', approval: entry.approval, outcome, ...(by ? { by } : {}) });
    return true;
  }

  return {
    open(request, where) {
      const approval = pendingApprovalOf(request, newApprovalId(), where, now());
      const { id } = approval;
      const answered = new Promise<ApprovalAnswer>((resolve) => {
        waiting.set(id, { approval, resolve });
      });
      const expire = () => close(id, 'expired');
      if (request.signal.aborted) queueMicrotask(expire);
      else request.signal.addEventListener('abort', expire, { once: true });
      void answered.then(() => request.signal.removeEventListener('abort', expire));
      emit({ type: 'opened', approval });
      return { approval, answered };
    },
    answer(id, answer, by) {
      const entry = waiting.get(id);
      // A remembered answer wider than the card allows counts as the widest it allows.
      const given = entry ? allowedAnswer(answer, entry.approval.scope?.remember ?? 'none') : answer;
      if (close(id, given, by)) return 'answered';
      return closed.has(id) ? 'already-answered' : 'unknown';
    },
    list: () => [...waiting.values()].map((entry) => entry.approval),
    outcome: (id) => closed.get(id),
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
}

let counter = 0;

/** A new card id: short, unique in this process and unlikely to meet another process's. */
export function newApprovalId(): string {
  counter += 1;
  return `a${counter.toString(36)}${Math.random().toString(36).slice(2, 7)}`;
}

/** The card every surface lists for `request`, asked `where` at `askedAt`. */
export function pendingApprovalOf(
  request: ApprovalRequest,
  id: string,
  where: string,
  askedAt: Date,
): PendingApproval {
  return {
    id,
    tool: request.tool,
    argument: request.argument,
    rule: request.rule,
    reason: request.reason,
    ...(request.conversationId !== undefined ? { conversationId: request.conversationId } : {}),
    ...(request.scope ? { scope: request.scope } : {}),
    where,
    askedAt,
    expiresAt: new Date(askedAt.getTime() + request.timeoutMs),
  };
}

/** `answer`, narrowed to what a card whose widest remembered answer is `widest` may be given. */
export function allowedAnswer(
  answer: ApprovalAnswer,
  widest: 'none' | 'conversation' | 'always',
): ApprovalAnswer {
  if (answer === 'always' && widest !== 'always') return widest === 'conversation' ? 'conversation' : 'once';
  if (answer === 'conversation' && widest === 'none') return 'once';
  return answer;
}
