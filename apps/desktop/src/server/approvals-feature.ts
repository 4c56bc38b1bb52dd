import { type ApprovalRuleStore, describeRule, type PendingApprovals } from '@macstats/core';
import type { ApprovalRuleView, PendingApprovalView } from '../shared/chat-types.js';
import { checkId, HttpError, sendJson } from './http-helpers.js';
import type { DashboardFeature } from './start-dashboard.js';

/** Options of {@link createApprovalsFeature}. */
export interface ApprovalsFeatureOptions {
  /** The cards waiting for an answer (the chat's registry). */
  pending: PendingApprovals;
  /** The saved "Always" rules and "this conversation" answers. */
  rules: ApprovalRuleStore;
  /** Tells every open page the waiting cards changed (an `approvals` event). */
  broadcast?(event: 'approvals', data: { at: number }): void;
}

/**
 * The approvals seen from Settings: `GET /api/approvals` lists the cards waiting in every
 * process on the data folder (id, tool, rule, the call, where asked, expiry, the answers it may
 * be given; `POST /api/chat/approvals/:id` answers one) and the saved rules with the "this
 * conversation" answers; `DELETE /api/approvals/rules/:id` revokes one, so calls it covered ask
 * again. Every card opened or ended anywhere is an `approvals` event to the pages.
 */
export function createApprovalsFeature(options: ApprovalsFeatureOptions): DashboardFeature {
  const { pending, rules } = options;
  if (options.broadcast) {
    const broadcast = options.broadcast;
    pending.subscribe(() => broadcast('approvals', { at: Date.now() }));
  }
  const ruleViews = async (): Promise<ApprovalRuleView[]> =>
    (await rules.list()).map((rule) => ({
      id: rule.id,
      text: describeRule(rule),
      createdAt: rule.createdAt,
      ...(rule.conversationId !== undefined ? { conversationId: rule.conversationId } : {}),
      ...(rule.expiresAt !== undefined ? { expiresAt: rule.expiresAt } : {}),
    }));
  const readRules = async () => {
    try {
      return await ruleViews();
    } catch (error) {
      throw new HttpError(500, (error as Error).message);
    }
  };
  return {
    routes: [
      {
        method: 'GET',
        path: /^\/api\/approvals$/,
        kind: 'read',
        async handle({ response }) {
          const waiting = pending.list().map(
            (card): PendingApprovalView => ({
              id: card.id,
              tool: card.tool,
              rule: card.rule,
              argument: card.argument,
              reason: card.reason,
              where: card.where,
              expiresAt: card.expiresAt.getTime(),
              choices: {
                conversation: (card.scope?.remember ?? 'none') !== 'none',
                always: card.scope?.remember === 'always',
              },
            }),
          );
          sendJson(response, 200, { pending: waiting, rules: await readRules() });
        },
      },
      {
        method: 'DELETE',
        path: /^\/api\/approvals\/rules\/([^/]+)$/,
        kind: 'write',
        async handle({ response, params }) {
          const id = checkId(params[0] ?? '', 'rule id');
          if (!(await rules.revoke(id)))
            throw new HttpError(
              404,
              `There is no saved approval rule "${id}"; it may have been revoked already.`,
            );
          sendJson(response, 200, { revoked: id, rules: await readRules() });
        },
      },
    ],
  };
}
