import type { ApprovalRuleView } from '../shared/chat-types.js';
import { ApiError, getJson, sendJson } from './api.js';
import { h, replaceChildren } from './dom.js';
import { formatTime } from './format.js';

interface ApprovalsState {
  pending: Array<{ id: string; tool: string; rule: string; where: string; expiresAt: number }>;
  rules: ApprovalRuleView[];
}

/**
 * Settings' approvals: the cards waiting for an answer (tool, rule, where asked, when denied) and
 * the saved "Always" rules, each with Revoke (`DELETE /api/approvals/rules/:id`): calls it
 * covered ask again. The same rules as `macstats approvals` and Discord's `/approvals`.
 */
export function createApprovalRulesSection(): { element: HTMLElement; load(): Promise<void> } {
  const body = h('div', {});
  const message = h('p', { class: 'form-message', role: 'status' });
  const element = h(
    'section',
    { class: 'settings-approvals', id: 'settings-approvals' },
    h('h2', {}, 'Approvals'),
    body,
    message,
  );
  function render(state: ApprovalsState): void {
    const waiting =
      state.pending.length === 0
        ? h('p', { class: 'note' }, 'No approvals are waiting.')
        : h(
            'ul',
            { class: 'approvals-pending' },
            ...state.pending.map((card) =>
              h(
                'li',
                {},
                `${card.tool} (${card.rule}), asked on ${card.where}, denied at ${formatTime(card.expiresAt)}`,
              ),
            ),
          );
    const rules =
      state.rules.length === 0
        ? h(
            'p',
            { class: 'note approval-rules-empty' },
            'No saved rules: every call that needs approval asks.',
          )
        : h(
            'ul',
            { class: 'approval-rules' },
            ...state.rules.map((rule) =>
              h(
                'li',
                { 'data-rule': rule.id },
                h('span', { class: 'approval-rule-text' }, rule.text),
                ' ',
                h('span', { class: 'note' }, `saved ${formatTime(Date.parse(rule.createdAt))}`),
                ' ',
                h(
                  'button',
                  { type: 'button', class: 'ghost approval-rule-revoke', onclick: () => void revoke(rule) },
                  'Revoke',
                ),
              ),
            ),
          );
    replaceChildren(body, h('h3', {}, 'Waiting'), waiting, h('h3', {}, 'Saved rules ("Always")'), rules);
  }
  async function revoke(rule: ApprovalRuleView): Promise<void> {
    try {
      const result = await sendJson<{ rules: ApprovalRuleView[] }>(
        `/api/approvals/rules/${encodeURIComponent(rule.id)}`,
        {},
        'DELETE',
      );
      message.textContent = `Revoked: ${rule.text} asks again.`;
      render({ pending: (await getJson<ApprovalsState>('/api/approvals')).pending, rules: result.rules });
    } catch (failure) {
      message.textContent = failure instanceof ApiError ? failure.message : String(failure);
    }
  }
  return {
    element,
    async load() {
      try {
        render(await getJson<ApprovalsState>('/api/approvals'));
      } catch (failure) {
        replaceChildren(
          body,
          h('p', { class: 'note' }, failure instanceof ApiError ? failure.message : String(failure)),
        );
      }
    },
  };
}
