import type { TaskDetailView as TaskDetail, TaskSummaryView as TaskSummary } from '../shared/task-types.js';
import { ApiError, getJson, sendJson } from './api.js';
import { h, replaceChildren } from './dom.js';
import type { View } from './main.js';
import type { LiveStream } from './stream.js';
import { renderTaskRow, renderTaskSteps, type TaskActions } from './task-parts.js';

/**
 * Tasks: every durable task with its state, live (the server watches the tasks folder, whoever
 * runs them), the steps of the one opened (under that task, scrolled into view), and the
 * owner's actions: cancel, resume, and approve or deny the call a task waits for.
 */
export function createTasksView(root: HTMLElement, stream: LiveStream): View {
  const list = h('ul', { class: 'task-list', id: 'task-list' });
  const empty = h(
    'p',
    { class: 'tasks-empty', id: 'tasks-empty' },
    'No tasks yet. Ask for one in the chat ("watch this page and tell me tomorrow") or add one with macstats task add.',
  );
  const message = h('p', { class: 'form-message', id: 'tasks-message', role: 'status' });
  // One detail, moved into the row of the task it shows.
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
  );
  let opened: string | undefined;
  let visible = false;

  const say = (failure: unknown) => {
    message.textContent = failure instanceof ApiError ? failure.message : String(failure);
  };
  const rowOf = (id: string) =>
    [...list.querySelectorAll<HTMLElement>('li.task')].find((row) => row.dataset['taskId'] === id);

  const actions: TaskActions = {
    act(id, action, body = {}) {
      message.textContent = '';
      void sendJson<TaskDetail>(`/api/tasks/${encodeURIComponent(id)}/${action}`, body).then(async (task) => {
        message.textContent = `Task ${task.id} is ${task.state}.`;
        await load();
      }, say);
    },
    toggleSteps(id) {
      if (opened === id && !detail.hidden) close();
      else void open(id, true);
    },
  };

  function close(): void {
    opened = undefined;
    detail.hidden = true;
    detail.remove();
    for (const toggle of list.querySelectorAll('button[data-action="open"]'))
      toggle.setAttribute('aria-expanded', 'false');
  }

  /** Shows a task's steps under it; `reveal` (a click on Steps) scrolls them into view. */
  async function open(id: string, reveal = false): Promise<void> {
    opened = id;
    try {
      const task = await getJson<TaskDetail>(`/api/tasks/${encodeURIComponent(id)}`);
      const row = rowOf(id);
      if (opened !== id || !row) return;
      replaceChildren(detail, ...renderTaskSteps(task));
      detail.hidden = false;
      row.append(detail);
      for (const toggle of list.querySelectorAll('button[data-action="open"]'))
        toggle.setAttribute('aria-expanded', String(toggle.closest('li') === row));
      if (reveal) detail.scrollIntoView({ block: 'nearest' });
    } catch (failure) {
      say(failure);
    }
  }

  async function load(): Promise<void> {
    try {
      const answer = await getJson<{ tasks: TaskSummary[]; problems: string[] }>('/api/tasks');
      empty.hidden = answer.tasks.length > 0;
      replaceChildren(list, ...answer.tasks.map((task) => renderTaskRow(task, actions, task.id === opened)));
      if (answer.problems.length > 0) message.textContent = answer.problems.join(' ');
      const row = opened ? rowOf(opened) : undefined;
      // The steps stay in place while they are read again (no jump in the list).
      row?.append(detail);
      if (opened && row) await open(opened);
      else if (opened) close();
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
