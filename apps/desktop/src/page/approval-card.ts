import type { PendingApproval, ToolActivity } from '../shared/chat-types.js';
import { ApiError, sendJson } from './api.js';
import { h } from './dom.js';

function clock(ms: number): string {
  return new Date(ms).toLocaleTimeString([], { hour: '2-digit', minute: '2-digit', second: '2-digit' });
}

type Answer = 'once' | 'conversation' | 'always' | 'deny';

/**
 * The card of a call waiting for the user's approval: the call, the policy's reason, and
 * Approve once / This conversation / Always (the last two where the card allows them) / Deny,
 * which post the answer (`POST /api/chat/approvals/:id`). The server closes the card
 * (`approval-end`) on every open page once it is answered, expired or its answer ended.
 */
export function renderApprovalCard(approval: PendingApproval): HTMLElement {
  const argument = approval.argument.length > 300 ? `${approval.argument.slice(0, 300)}…` : approval.argument;
  const problem = h('p', { class: 'form-error approval-error', role: 'alert', hidden: true });
  const buttons: HTMLButtonElement[] = [];
  const decide = async (answer: Answer) => {
    for (const button of buttons) button.disabled = true;
    problem.hidden = true;
    try {
      await sendJson(`/api/chat/approvals/${encodeURIComponent(approval.id)}`, { answer });
    } catch (failure) {
      problem.textContent = failure instanceof ApiError ? failure.message : String(failure);
      problem.hidden = false;
    }
  };
  const button = (answer: Answer, label: string, className: string, title?: string) => {
    const element = h(
      'button',
      { type: 'button', class: className, onclick: () => void decide(answer), ...(title ? { title } : {}) },
      label,
    ) as HTMLButtonElement;
    buttons.push(element);
    return element;
  };
  const choices = approval.choices ?? { conversation: false, always: false };
  const actions = [
    button('once', 'Approve once', 'approval-approve'),
    ...(choices.conversation
      ? [
          button(
            'conversation',
            'This conversation',
            'ghost approval-conversation',
            `Run ${approval.tool} calls like this one without asking for the rest of this conversation`,
          ),
        ]
      : []),
    ...(choices.always
      ? [
          button(
            'always',
            'Always',
            'ghost approval-always',
            `Save a rule: ${approval.tool} calls like this one run without asking (Settings lists and revokes it)`,
          ),
        ]
      : []),
    button('deny', 'Deny', 'ghost approval-deny'),
  ];
  return h(
    'section',
    { class: 'approval-card', 'data-approval': approval.id, 'aria-label': `Approve ${approval.tool}?` },
    h('p', { class: 'approval-title' }, 'This call needs your approval'),
    h(
      'p',
      { class: 'approval-call' },
      h('span', { class: 'tool-name' }, approval.tool),
      ' ',
      h('span', { class: 'tool-argument' }, argument),
    ),
    h('p', { class: 'approval-reason' }, approval.reason),
    h('div', { class: 'approval-actions' }, ...actions),
    h('p', { class: 'approval-expiry' }, `Denied at ${clock(approval.expiresAt)} unless you decide.`),
    problem,
  );
}

/** The words a tool entry adds for its approval: waiting, approved, or refused. */
export function approvalLabel(activity: ToolActivity): string | undefined {
  switch (activity.approval?.decision) {
    case 'asked':
      return activity.status === 'running' ? 'waiting for your approval' : undefined;
    case 'approved':
      return 'approved';
    case 'refused':
      return 'refused: not approved';
    default:
      return undefined;
  }
}
