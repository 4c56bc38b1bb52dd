import type { TaskApprovalView, TaskDetailView, TaskSummaryView } from '../shared/task-types.js';
import { ApiError, getJson, sendJson } from './api.js';
import { h, replaceChildren } from './dom.js';
import type { View } from './main.js';
import { renderMarkdown } from './markdown.js';
import type { LiveStream } from './stream.js';

const ENDED = new Set(['done', 'failed', 'cancelled']);

/**
 * Tasks: every durable task with its state, live (the server watches the tasks folder, whoever
 * runs them), the steps of the one opened, and the owner's actions: cancel, resume, and approve
 * or deny the call a task waits for.
 */
export function createTasksView(root: HTMLElement, stream: LiveStream): View {
  const list = h('ul', { class: 'task-list', id: 'task-list' });
  const empty = h(
    'p',
    { class: 'tasks-empty', id: 'tasks-empty' },
    'No tasks yet. Ask for one in the chat ("watch this page and tell me tomorrow") or add one with macstats task add.',
  );
  const message = h('p', { class: 'form-message', id: 'tasks-message', role: 'status' });
  const detail = h('div', { class: 'task-detail', id: 'task-detail', hidden: true });
  replaceChildren(
    root,
    h('div', { class: 'section-head' }, h('h2', {}, 'Tasks')),
    h(
      'p',
      { class: 'hint' },
      'Work over several answers, run one step at a time by macstats start or this dashboard. A call that needs your approval waits here.',
    ),
    message,
    empty,
    list,
    detail,
  );
  let opened: string | undefined;
  let visible = false;

  const say = (failure: unknown) => {
    message.textContent = failure instanceof ApiError ? failure.message : String(failure);
  };

  async function act(id: string, action: 'cancel' | 'resume' | 'approve', body: object = {}): Promise<void> {
    message.textContent = '';
    try {
      const task = await sendJson<TaskDetailView>(`/api/tasks/${encodeURIComponent(id)}/${action}`, body);
      message.textContent = `Task ${task.id} is ${task.state}.`;
      await load();
    } catch (failure) {
      say(failure);
    }
  }

  function approvalCard(task: TaskSummaryView, approval: TaskApprovalView): HTMLElement {
    return h(
      'div',
      { class: 'task-approval', 'data-approval-id': approval.id },
      h('p', { class: 'task-waiting' }, task.waiting ?? ''),
      h('code', { class: 'task-call' }, `${approval.tool}: ${approval.argument}`),
      h('p', { class: 'hint' }, approval.reason),
      h(
        'div',
        { class: 'task-actions' },
        button('Approve', 'approve', () => void act(task.id, 'approve', { approval: approval.id })),
        button(
          'Deny',
          'deny',
          () => void act(task.id, 'approve', { approval: approval.id, deny: true }),
          true,
        ),
      ),
    );
  }

  function row(task: TaskSummaryView): HTMLElement {
    const actions = h('div', { class: 'task-actions' });
    actions.append(button('Steps', 'open', () => void open(task.id, true)));
    if (!ENDED.has(task.state))
      actions.append(button('Cancel', 'cancel', () => void act(task.id, 'cancel'), true));
    if ((task.state === 'failed' || task.state === 'cancelled' || task.state === 'waiting') && !task.approval)
      actions.append(button('Resume', 'resume', () => void act(task.id, 'resume')));
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
      task.approval ? approvalCard(task, task.approval) : null,
      actions,
    );
  }

  function renderDetail(task: TaskDetailView): void {
    detail.hidden = false;
    replaceChildren(detail, ...detailElements(task));
  }

  /** Shows a task's steps; `reveal` (a click on Steps) scrolls them into view below a long list. */
  async function open(id: string, reveal = false): Promise<void> {
    opened = id;
    try {
      renderDetail(await getJson<TaskDetailView>(`/api/tasks/${encodeURIComponent(id)}`));
      if (reveal) detail.scrollIntoView({ block: 'start' });
    } catch (failure) {
      say(failure);
    }
  }

  async function load(): Promise<void> {
    try {
      const answer = await getJson<{ tasks: TaskSummaryView[]; problems: string[] }>('/api/tasks');
      empty.hidden = answer.tasks.length > 0;
      replaceChildren(list, ...answer.tasks.map(row));
      if (answer.problems.length > 0) message.textContent = answer.problems.join(' ');
      if (opened) await open(opened);
    } catch (failure) {
      say(failure);
    }
  }

  // Every change to a task file (a step, a call, a decision) reaches the open page.
  stream.on('tasks', () => {
    if (visible) void load();
  });
  return {
    show() {
      visible = true;
      void load();
    },
    hide() {
      visible = false;
    },
  };
}

/** A button of a task's row or card, named by `data-action` for the tests and the styles. */
function button(label: string, action: string, onClick: () => void, danger = false): HTMLButtonElement {
  const element = h(
    'button',
    { type: 'button', class: danger ? 'ghost danger' : 'ghost', 'data-action': action },
    label,
  );
  element.addEventListener('click', onClick);
  return element;
}

/** A task's instructions, notes and steps, each call with the start of its result. */
function detailElements(task: TaskDetailView): Array<HTMLElement | null> {
  return [
    h('h3', {}, `${task.title} (${task.state})`),
    h('p', { class: 'task-instructions' }, task.instructions),
    task.notes.length > 0
      ? h('ul', { class: 'task-notes' }, ...task.notes.map((note) => h('li', {}, note)))
      : null,
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
