import type { ApprovalRuleView, PendingApprovalView } from '../shared/chat-types.js';
import { ApiError, getJson, sendJson } from './api.js';
import { h, replaceChildren } from './dom.js';
import { formatTime } from './format.js';
import type { LiveStream } from './stream.js';

type ApprovalAnswer = 'once' | 'conversation' | 'always' | 'deny';

interface ApprovalsState {
  pending: PendingApprovalView[];
  rules: ApprovalRuleView[];
}

/** A waiting card's buttons: the answers it may be given. */
function answerButtons(card: PendingApprovalView, answer: (answer: ApprovalAnswer) => void): HTMLElement {
  const button = (label: string, given: ApprovalAnswer, kind = '') =>
    h(
      'button',
      {
        type: 'button',
        class: `approval-answer ${kind}`.trim(),
        'data-answer': given,
        onclick: () => answer(given),
      },
      label,
    );
  return h(
    'span',
    { class: 'approval-actions' },
    button('Approve once', 'once'),
    ...(card.choices.conversation ? [button('This conversation', 'conversation', 'ghost')] : []),
    ...(card.choices.always ? [button('Always', 'always', 'ghost')] : []),
    button('Deny', 'deny', 'ghost'),
  );
}

/** One saved rule's line: what it allows, and for which conversation until when. */
function ruleNote(rule: ApprovalRuleView): string {
  return rule.expiresAt
    ? `until ${formatTime(Date.parse(rule.expiresAt))}`
    : `saved ${formatTime(Date.parse(rule.createdAt))}`;
}

/**
 * Settings' approvals: the cards waiting for an answer in any process on this data folder (the
 * call, where asked, when denied), each answerable here (`POST /api/chat/approvals/:id`: the
 * card in Discord or the chat then closes), and the saved rules ("Always", and "this
 * conversation" answers with their end), each with Revoke (`DELETE /api/approvals/rules/:id`):
 * calls it covered ask again. The same as `macstats approvals` and Discord's `/approvals`; it
 * follows the `approvals` events of the live stream.
 */
export function createApprovalRulesSection(stream?: LiveStream): {
  element: HTMLElement;
  load(): Promise<void>;
} {
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
                { 'data-approval': card.id },
                `${card.tool} (${card.rule}), asked on ${card.where}, denied at ${formatTime(card.expiresAt)}: `,
                h('code', { class: 'approval-call' }, card.argument),
                ' ',
                h('span', { class: 'note' }, card.reason),
                ' ',
                answerButtons(card, (answer) => void decide(card, answer)),
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
                h('span', { class: 'note' }, ruleNote(rule)),
                ' ',
                h(
                  'button',
                  { type: 'button', class: 'ghost approval-rule-revoke', onclick: () => void revoke(rule) },
                  'Revoke',
                ),
              ),
            ),
          );
    replaceChildren(body, h('h3', {}, 'Waiting'), waiting, h('h3', {}, 'Saved rules'), rules);
  }
  async function decide(card: PendingApprovalView, answer: ApprovalAnswer): Promise<void> {
    try {
      await sendJson(`/api/chat/approvals/${encodeURIComponent(card.id)}`, { answer });
      message.textContent = `${answer === 'deny' ? 'Denied' : 'Approved'}: ${card.tool} (${card.rule}).`;
    } catch (failure) {
      message.textContent = failure instanceof ApiError ? failure.message : String(failure);
    }
    await load();
  }
  async function load(): Promise<void> {
    try {
      render(await getJson<ApprovalsState>('/api/approvals'));
    } catch (failure) {
      replaceChildren(
        body,
        h('p', { class: 'note' }, failure instanceof ApiError ? failure.message : String(failure)),
      );
    }
  }
  // A card opened or answered anywhere: the list follows, and a stale card's buttons go with it.
  stream?.on('approvals', () => {
    if (element.isConnected) void load();
  });
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
  return { element, load };
}
