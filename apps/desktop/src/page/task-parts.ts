import type {
  TaskApprovalView,
  TaskDetailView as TaskDetail,
  TaskSummaryView as TaskSummary,
} from '../shared/task-types.js';
import { h } from './dom.js';
import { renderMarkdown } from './markdown.js';

const ENDED = new Set(['done', 'failed', 'cancelled']);

/** What a task's buttons do: the view's owner actions and opening or closing its steps. */
export interface TaskActions {
  act(id: string, action: 'cancel' | 'resume' | 'approve', body?: object): void;
  toggleSteps(id: string): void;
}

function button(label: string, action: string, onClick: () => void, danger = false): HTMLButtonElement {
  const element = h(
    'button',
    { type: 'button', class: danger ? 'ghost danger' : 'ghost', 'data-action': action },
    label,
  );
  element.addEventListener('click', onClick);
  return element;
}

function approvalCard(task: TaskSummary, approval: TaskApprovalView, actions: TaskActions): HTMLElement {
  return h(
    'div',
    { class: 'task-approval', 'data-approval-id': approval.id },
    h('p', { class: 'task-waiting' }, task.waiting ?? ''),
    h('code', { class: 'task-call' }, `${approval.tool}: ${approval.argument}`),
    h('p', { class: 'hint' }, approval.reason),
    h(
      'div',
      { class: 'task-actions' },
      button('Approve once', 'approve', () => actions.act(task.id, 'approve', { approval: approval.id })),
      ...(approval.choices.task
        ? [
            button('This task', 'approve-task', () =>
              actions.act(task.id, 'approve', { approval: approval.id, remember: 'task' }),
            ),
          ]
        : []),
      ...(approval.choices.always
        ? [
            button('Always', 'approve-always', () =>
              actions.act(task.id, 'approve', { approval: approval.id, remember: 'always' }),
            ),
          ]
        : []),
      button(
        'Deny',
        'deny',
        () => actions.act(task.id, 'approve', { approval: approval.id, deny: true }),
        true,
      ),
    ),
  );
}

/** One task of the list: its state, title, outcome, the approval it waits for and its buttons. */
export function renderTaskRow(task: TaskSummary, actions: TaskActions, stepsOpen: boolean): HTMLElement {
  const buttons = h('div', { class: 'task-actions' });
  const steps = button('Steps', 'open', () => actions.toggleSteps(task.id));
  steps.setAttribute('aria-expanded', String(stepsOpen));
  steps.setAttribute('aria-controls', 'task-detail');
  buttons.append(steps);
  if (!ENDED.has(task.state))
    buttons.append(button('Cancel', 'cancel', () => actions.act(task.id, 'cancel'), true));
  if ((task.state === 'failed' || task.state === 'cancelled' || task.state === 'waiting') && !task.approval)
    buttons.append(button('Resume', 'resume', () => actions.act(task.id, 'resume')));
  const outcome = task.result ?? task.error;
  return h(
    'li',
    { class: 'task', 'data-task-id': task.id, 'data-state': task.state },
    h(
      'div',
      { class: 'task-head' },
      h('span', { class: 'task-state' }, task.state),
      h('span', { class: 'task-title' }, task.title),
      h('span', { class: 'task-meta' }, `${task.id} · ${task.steps} steps · ${task.owner}`),
    ),
    outcome ? h('div', { class: 'task-outcome markdown' }, ...renderMarkdown(outcome)) : null,
    task.approval ? approvalCard(task, task.approval, actions) : null,
    buttons,
  );
}

/** The opened task's instructions, notes and steps, each step with its calls and reply. */
export function renderTaskSteps(task: TaskDetail): HTMLElement[] {
  return [
    h('h3', {}, `${task.title} (${task.state})`),
    h('p', { class: 'task-instructions' }, task.instructions),
    ...(task.notes.length > 0
      ? [h('ul', { class: 'task-notes' }, ...task.notes.map((note) => h('li', {}, note)))]
      : []),
    h(
      'ol',
      { class: 'task-steps', id: 'task-steps' },
      ...task.steps.map((step) =>
        h(
          'li',
          { class: 'task-step', 'data-step': step.number, 'data-finished': String(step.finished) },
          h('span', { class: 'task-step-head' }, `Step ${step.number}${step.finished ? '' : ' (under way)'}`),
          h(
            'ul',
            { class: 'task-calls' },
            ...step.toolCalls.map((call) =>
              h(
                'li',
                { class: 'task-call-line', 'data-status': call.status },
                h('code', {}, `${call.tool}: ${call.argument}`),
                call.result === undefined ? ' … ' : ` → ${call.result.slice(0, 300)}`,
              ),
            ),
          ),
          step.reply ? h('div', { class: 'task-reply markdown' }, ...renderMarkdown(step.reply)) : null,
        ),
      ),
    ),
  ];
}
