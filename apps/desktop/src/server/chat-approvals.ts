import {
  type ApprovalAnswer,
  type ApprovalRequest,
  type ApprovalRuleStore,
  type ApproveFunction,
  createApprovalMemory,
  createPendingApprovals,
  type Logger,
  type PendingApprovals,
} from '@macstats/core';
import type { ApprovalOutcome, ChatTurn, PendingApproval } from '../shared/chat-types.js';
import { checkId, HttpError, readJsonBody, sendJson } from './http-helpers.js';
import type { Route } from './router.js';

/** What one turn's approvals need from the chat: its turn, and how to tell the pages and save. */
export interface ApprovalTurn {
  conversationId: string;
  turn: ChatTurn;
  /** Sends a `chat` event of this turn to every open page. */
  emit(kind: 'approval' | 'approval-end', extra: Record<string, unknown>): void;
  /** Saves the transcript, so a reload shows the card (or that it closed). */
  persist(): void;
}

/** The dashboard's approvals: a card in the chat, held on the server until the page answers. */
export interface ChatApprovals {
  /** The `approve` hook of one turn's answer. */
  approverFor(where: ApprovalTurn): ApproveFunction;
  /** Forgets a conversation's "This conversation" answers (the conversation was deleted). */
  forgetConversation(conversationId: string): void;
  /** `POST /api/chat/approvals/:id` `{answer}` (or `{approved}`): the page's answer. */
  route: Route;
  /** The cards waiting, shared with the dashboard's other views. */
  pending: PendingApprovals;
}

const ANSWERS: readonly ApprovalAnswer[] = ['once', 'conversation', 'always', 'deny'];

/** The answer a body gives: `{"answer": "once" | "conversation" | "always" | "deny"}`, or `{"approved": bool}`. */
function answerOf(body: Record<string, unknown>): ApprovalAnswer {
  if (typeof body.approved === 'boolean' && body.answer === undefined) return body.approved ? 'once' : 'deny';
  if (typeof body.answer === 'string' && (ANSWERS as readonly string[]).includes(body.answer))
    return body.answer as ApprovalAnswer;
  throw new HttpError(
    400,
    'Say how the call is answered: {"answer": "once"}, "conversation", "always" or "deny".',
  );
}

/**
 * Creates the approvals of the chat. A call the containment policy holds becomes a card in its
 * turn (a `chat` event `approval`, and `turn.approval` in the saved transcript) with the answers
 * its scope allows; the answer waits until a page answers, the request times out, or the answer
 * stops. Then the card closes (`approval-end` with its outcome) on every open page and the call
 * runs or is refused; a second answer is told it was answered already (409). "This
 * conversation" and "Always" answers are remembered (`rules`: the saved ones). Every decision is
 * logged.
 */
export function createChatApprovals(options: {
  logger: Logger;
  now?: () => number;
  rules?: ApprovalRuleStore | undefined;
  pending?: PendingApprovals | undefined;
}): ChatApprovals {
  const { logger } = options;
  const now = options.now ?? Date.now;
  const registry = options.pending ?? createPendingApprovals({ now: () => new Date(now()) });
  const memory = createApprovalMemory({ rules: options.rules, logger });

  async function ask(where: ApprovalTurn, request: ApprovalRequest): Promise<ApprovalAnswer> {
    if (request.signal.aborted) return 'deny';
    const { turn } = where;
    const { approval: registered, answered } = registry.open(request, 'the dashboard');
    const widest = request.scope?.remember ?? 'none';
    const approval: PendingApproval = {
      id: registered.id,
      tool: request.tool,
      argument: request.argument,
      rule: request.rule,
      reason: request.reason,
      expiresAt: registered.expiresAt.getTime(),
      choices: {
        conversation: widest !== 'none',
        always: widest === 'always' && options.rules !== undefined,
      },
    };
    const log = {
      conversationId: where.conversationId,
      tool: request.tool,
      rule: request.rule,
      approvalId: approval.id,
    };
    turn.approval = approval;
    logger.info(log, 'approval asked');
    where.emit('approval', { approval });
    where.persist();
    const answer = await answered;
    const ended = registry.outcome(approval.id);
    const reason = request.signal.reason as { name?: unknown } | undefined;
    const outcome: ApprovalOutcome =
      ended === 'expired'
        ? reason?.name === 'TimeoutError'
          ? 'expired'
          : 'stopped'
        : answer === 'deny'
          ? 'denied'
          : 'approved';
    if (turn.approval?.id === approval.id) delete turn.approval;
    logger.info({ ...log, outcome, answer }, 'approval decided');
    where.emit('approval-end', { approvalId: approval.id, outcome, answer });
    where.persist();
    return answer;
  }

  return {
    approverFor: (where) => memory.approver((request) => ask(where, request)),
    forgetConversation: (conversationId) => memory.forgetConversation(conversationId),
    pending: registry,
    route: {
      method: 'POST',
      path: /^\/api\/chat\/approvals\/([^/]+)$/,
      kind: 'write',
      async handle({ request, response, params }) {
        const id = checkId(params[0] ?? '', 'approval id');
        const answer = answerOf(await readJsonBody(request));
        const result = registry.answer(id, answer, 'the dashboard');
        if (result === 'already-answered')
          throw new HttpError(409, 'This approval was already answered (or it expired).');
        if (result === 'unknown')
          throw new HttpError(
            404,
            'This approval is closed: it was decided, it expired, or its answer ended.',
          );
        const given = registry.outcome(id);
        sendJson(response, 200, { answer: given, approved: given !== 'deny' });
      },
    },
  };
}
