import { randomUUID } from 'node:crypto';
import type { ApprovalRequest, ApproveFunction, Logger } from '@macstats/core';
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
  /** `POST /api/chat/approvals/:id` `{approved}`: the page's Approve or Deny. */
  route: Route;
}

interface Pending {
  decide(approved: boolean): void;
}

/**
 * Creates the approvals of the chat. A call the containment policy holds becomes a card in its
 * turn (a `chat` event `approval`, and `turn.approval` in the saved transcript); the answer waits
 * until a page posts Approve or Deny, the request times out, or the answer stops. Then the card
 * closes (`approval-end` with its outcome) and the call runs or is refused. Every decision is
 * logged.
 */
export function createChatApprovals(options: { logger: Logger; now?: () => number }): ChatApprovals {
  const { logger } = options;
  const now = options.now ?? Date.now;
  const pending = new Map<string, Pending>();

  function ask(where: ApprovalTurn, request: ApprovalRequest): Promise<boolean> {
    if (request.signal.aborted) return Promise.resolve(false);
    const { turn } = where;
    const approval: PendingApproval = {
      id: randomUUID(),
      tool: request.tool,
      argument: request.argument,
      rule: request.rule,
      reason: request.reason,
      expiresAt: now() + request.timeoutMs,
    };
    const log = {
      conversationId: where.conversationId,
      tool: request.tool,
      rule: request.rule,
      approvalId: approval.id,
    };
    return new Promise<boolean>((resolve) => {
      const finish = (outcome: ApprovalOutcome) => {
        if (!pending.delete(approval.id)) return;
        request.signal.removeEventListener('abort', onAbort);
        if (turn.approval?.id === approval.id) delete turn.approval;
        logger.info({ ...log, outcome }, 'approval decided');
        where.emit('approval-end', { approvalId: approval.id, outcome });
        where.persist();
        resolve(outcome === 'approved');
      };
      const onAbort = () => {
        const reason = request.signal.reason as { name?: unknown } | undefined;
        finish(reason?.name === 'TimeoutError' ? 'expired' : 'stopped');
      };
      pending.set(approval.id, { decide: (approved) => finish(approved ? 'approved' : 'denied') });
      request.signal.addEventListener('abort', onAbort, { once: true });
      turn.approval = approval;
      logger.info(log, 'approval asked');
      where.emit('approval', { approval });
      where.persist();
    });
  }

  return {
    approverFor: (where) => (request) => ask(where, request),
    route: {
      method: 'POST',
      path: /^\/api\/chat\/approvals\/([^/]+)$/,
      kind: 'write',
      async handle({ request, response, params }) {
        const id = checkId(params[0] ?? '', 'approval id');
        const body = await readJsonBody(request);
        if (typeof body.approved !== 'boolean')
          throw new HttpError(400, 'Say whether the call is approved: {"approved": true} or false.');
        const entry = pending.get(id);
        if (!entry)
          throw new HttpError(
            404,
            'This approval is closed: it was decided, it expired, or its answer ended.',
          );
        entry.decide(body.approved);
        sendJson(response, 200, { approved: body.approved });
      },
    },
  };
}
