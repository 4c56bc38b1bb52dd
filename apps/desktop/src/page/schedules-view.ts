import type { ScheduleEntry, SchedulesAnswer } from '../shared/schedule-types.js';
import { ApiError, getJson, sendJson } from './api.js';
import { h, replaceChildren } from './dom.js';
import { formatDuration, formatTime, formatTimeIn } from './format.js';
import type { View } from './main.js';
import { createScheduleForm } from './schedule-form.js';
import type { LiveStream } from './stream.js';

/** Schedules: the list with next runs, the run history, and the form to add or edit one. */
export function createSchedulesView(root: HTMLElement, stream: LiveStream): View {
  const status = h('p', { class: 'schedules-status', id: 'schedules-status' });
  const fileErrors = h('ul', { class: 'file-errors', role: 'alert' });
  const list = h('ol', { class: 'schedule-list', id: 'schedule-list' });
  const history = h('tbody', {});
  const addButton = h('button', { type: 'button', id: 'schedule-add' }, 'Add a schedule');
  const form = createScheduleForm({
    onSaved: () => {
      form.element.hidden = true;
      addButton.hidden = false;
      void load();
    },
    onCancel: () => {
      form.element.hidden = true;
      addButton.hidden = false;
    },
  });
  form.element.hidden = true;
  const message = h('p', { class: 'form-message', role: 'status' });
  replaceChildren(
    root,
    h('div', { class: 'section-head' }, h('h2', {}, 'Schedules'), addButton),
    status,
    fileErrors,
    form.element,
    message,
    list,
    h('h3', {}, 'Recent runs'),
    historyTable(history),
  );
  let visible = false;

  addButton.addEventListener('click', () => {
    form.edit(undefined);
    form.element.hidden = false;
    addButton.hidden = true;
  });

  /** The Run now button, disabled with the reason as its title when the run cannot start here. */
  function runButton(entry: ScheduleEntry, leader: boolean): HTMLButtonElement {
    const id = entry.schedule.id;
    const why = !leader
      ? 'Another macstats process runs the schedules: run it from there.'
      : entry.running
        ? 'This schedule is running; wait for it to finish.'
        : undefined;
    const button = h(
      'button',
      { type: 'button', class: 'ghost', 'data-action': 'run-now', disabled: why !== undefined, title: why },
      'Run now',
    );
    button.addEventListener('click', async () => {
      button.disabled = true;
      message.textContent = '';
      try {
        // 202 once started; the scheduler's events then redraw the entry as running, then done.
        await sendJson(`/api/schedules/${encodeURIComponent(id)}/run`, {});
        void load();
      } catch (failure) {
        message.textContent = failure instanceof ApiError ? failure.message : String(failure);
        void load();
      }
    });
    return button;
  }

  function renderEntry(entry: ScheduleEntry, leader: boolean): HTMLLIElement {
    const { schedule } = entry;
    const edit = h('button', { type: 'button', class: 'ghost' }, 'Edit');
    const remove = h('button', { type: 'button', class: 'ghost danger' }, 'Remove');
    edit.addEventListener('click', () => {
      form.edit(schedule, entry.timezone);
      form.element.hidden = false;
      addButton.hidden = true;
      form.element.scrollIntoView({ block: 'nearest' });
    });
    remove.addEventListener('click', async () => {
      if (!confirm(`Remove the schedule "${schedule.id}"?`)) return;
      try {
        await sendJson(`/api/schedules/${encodeURIComponent(schedule.id)}`, {}, 'DELETE');
        message.textContent = `Removed "${schedule.id}".`;
        void load();
      } catch (failure) {
        message.textContent = failure instanceof ApiError ? failure.message : String(failure);
      }
    });
    const when = schedule.cron ? `cron ${schedule.cron}` : `once at ${schedule.at ?? ''}`;
    const { next, last } = runsOf(entry);
    return h(
      'li',
      { class: 'schedule', 'data-schedule': schedule.id },
      h(
        'div',
        { class: 'schedule-head' },
        h('strong', {}, schedule.id),
        entry.running ? h('span', { class: 'pill' }, 'running…') : null,
        h('span', { class: 'actions' }, runButton(entry, leader), edit, remove),
      ),
      h('p', { class: 'task' }, schedule.task),
      h(
        'p',
        { class: 'muted' },
        `${when} · ${entry.timezone}${schedule.reply_to_channel_id ? ` · to channel ${schedule.reply_to_channel_id}` : ''}`,
      ),
      h('div', { class: 'next' }, h('span', { class: 'label' }, 'Next runs'), next),
      last,
    );
  }

  async function load(): Promise<void> {
    let answer: SchedulesAnswer;
    try {
      answer = await getJson<SchedulesAnswer>('/api/schedules');
    } catch (failure) {
      status.textContent = failure instanceof ApiError ? failure.message : String(failure);
      return;
    }
    status.textContent = answer.statusText;
    status.dataset['leader'] = String(answer.leader);
    replaceChildren(fileErrors, ...answer.errors.map((text) => h('li', {}, text)));
    replaceChildren(
      list,
      ...(answer.schedules.length > 0
        ? answer.schedules.map((entry) => renderEntry(entry, answer.leader))
        : [h('li', { class: 'empty' }, `No schedules yet. They are kept in ${answer.file}.`)]),
    );
    replaceChildren(
      history,
      ...(answer.history.length > 0
        ? answer.history.map(historyRow)
        : [h('tr', {}, h('td', { colspan: 4, class: 'muted' }, 'No runs yet.'))]),
    );
  }

  stream.on('schedules', () => {
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

/** The table of recent runs around its body. */
function historyTable(body: HTMLElement): HTMLElement {
  return h(
    'div',
    { class: 'table-scroll' },
    h(
      'table',
      { class: 'history', id: 'schedule-history' },
      h(
        'thead',
        {},
        h(
          'tr',
          {},
          h('th', {}, 'When'),
          h('th', {}, 'Schedule'),
          h('th', {}, 'Outcome'),
          h('th', { class: 'number' }, 'Took'),
        ),
      ),
      body,
    ),
  );
}

/** One run of the history. */
function historyRow(record: SchedulesAnswer['history'][number]): HTMLElement {
  return h(
    'tr',
    { 'data-outcome': record.outcome },
    h('td', {}, formatTime(record.start)),
    h('td', {}, record.id),
    h(
      'td',
      { title: record.error ?? '' },
      `${record.error ? `${record.outcome}: ${record.error}` : record.outcome}${record.manual ? ' (run now)' : ''}`,
    ),
    h('td', { class: 'number' }, formatDuration(record.durationMs)),
  );
}

/** A schedule's next runs, and its last run when there was one. */
function runsOf(entry: ScheduleEntry): { next: HTMLElement; last: HTMLElement | null } {
  const next =
    entry.nextRuns.length > 0
      ? h(
          'ul',
          { class: 'next-runs' },
          ...entry.nextRuns.map((time) =>
            h('li', {}, h('time', { datetime: time }, formatTimeIn(time, entry.timezone))),
          ),
        )
      : h('p', { class: 'muted' }, entry.done ? 'Done.' : 'No upcoming run.');
  const last = entry.lastRun
    ? h(
        'p',
        { class: 'muted last-run', 'data-outcome': entry.lastRun.outcome },
        `Last run${entry.lastRun.manual ? ' (run now)' : ''} ${formatTime(entry.lastRun.startedAt)}: ${entry.lastRun.outcome} in ${formatDuration(entry.lastRun.durationMs)}`,
      )
    : null;
  return { next, last };
}
