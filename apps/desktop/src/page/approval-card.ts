import type { PendingApproval, ToolActivity } from '../shared/chat-types.js';
import { ApiError, sendJson } from './api.js';
import { h } from './dom.js';

function clock(ms: number): string {
  return new Date(ms).toLocaleTimeString([], { hour: '2-digit', minute: '2-digit', second: '2-digit' });
}

/**
 * The card of a call waiting for the user's approval: the call, the policy's reason, and
 * Approve / Deny, which post the decision (`POST /api/chat/approvals/:id`). The server closes the
 * card (`approval-end`) once it is decided, expired or its answer ended.
 */
export function renderApprovalCard(approval: PendingApproval): HTMLElement {
  const argument = approval.argument.length > 300 ? `${approval.argument.slice(0, 300)}…` : approval.argument;
  const problem = h('p', { class: 'form-error approval-error', role: 'alert', hidden: true });
  const decide = async (approved: boolean) => {
    for (const button of [approve, deny]) button.disabled = true;
    problem.hidden = true;
    try {
      await sendJson(`/api/chat/approvals/${encodeURIComponent(approval.id)}`, { approved });
    } catch (failure) {
      problem.textContent = failure instanceof ApiError ? failure.message : String(failure);
      problem.hidden = false;
    }
  };
  const approve = h(
    'button',
    { type: 'button', class: 'approval-approve', onclick: () => void decide(true) },
    'Approve',
  );
  const deny = h(
    'button',
    { type: 'button', class: 'ghost approval-deny', onclick: () => void decide(false) },
    'Deny',
  );
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
    h('div', { class: 'approval-actions' }, approve, deny),
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
