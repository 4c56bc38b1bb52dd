import { type ApprovalRuleStore, describeRule, type PendingApprovals } from '@macstats/core';
import type { ApprovalRuleView } from '../shared/chat-types.js';
import { checkId, HttpError, sendJson } from './http-helpers.js';
import type { DashboardFeature } from './start-dashboard.js';

/** Options of {@link createApprovalsFeature}. */
export interface ApprovalsFeatureOptions {
  /** The cards waiting for an answer (the chat's registry). */
  pending: PendingApprovals;
  /** The saved "Always" rules (`approval-rules.json`). */
  rules: ApprovalRuleStore;
}

/**
 * The approvals seen from Settings: `GET /api/approvals` lists the cards waiting (id, tool, rule,
 * where asked, expiry; never the call) and the saved rules; `DELETE /api/approvals/rules/:id`
 * revokes one, so calls it covered ask again.
 */
export function createApprovalsFeature(options: ApprovalsFeatureOptions): DashboardFeature {
  const { pending, rules } = options;
  const ruleViews = async (): Promise<ApprovalRuleView[]> =>
    (await rules.list()).map((rule) => ({
      id: rule.id,
      text: describeRule(rule),
      createdAt: rule.createdAt,
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
          const waiting = pending.list().map((card) => ({
            id: card.id,
            tool: card.tool,
            rule: card.rule,
            where: card.where,
            expiresAt: card.expiresAt.getTime(),
          }));
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
