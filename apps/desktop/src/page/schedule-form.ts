import type { PreviewAnswer, ScheduleInput } from '../shared/schedule-types.js';
import { ApiError, sendJson } from './api.js';
import { h, replaceChildren } from './dom.js';
import { formatTimeIn, wallTimeIn } from './format.js';

/** The add/edit form of a schedule, with the next runs previewed as you type. */
export interface ScheduleForm {
  element: HTMLFormElement;
  /**
   * Opens the form empty (`undefined`) or filled with a schedule to edit; `timeZone` is the zone
   * the schedule runs in (its own or the scheduler's), for showing an `at` written with an offset.
   */
  edit(schedule: ScheduleInput | undefined, timeZone?: string): void;
}

function field(label: string, control: HTMLElement, hint?: string): HTMLElement {
  return h(
    'label',
    { class: 'field' },
    h('span', {}, label),
    control,
    hint ? h('small', { class: 'muted' }, hint) : null,
  );
}

/** The form's controls, before they are laid out. */
function formControls() {
  const id = h('input', {
    name: 'id',
    required: true,
    pattern: '[A-Za-z0-9_.-]+',
    maxlength: 64,
    autocomplete: 'off',
  });
  const task = h('textarea', { name: 'task', required: true, rows: 2 });
  const kindCron = h('input', { type: 'radio', name: 'kind', value: 'cron', checked: true });
  const kindAt = h('input', { type: 'radio', name: 'kind', value: 'at' });
  const cron = h('input', {
    name: 'cron',
    placeholder: '0 9 * * 1-5',
    autocomplete: 'off',
    spellcheck: 'false',
  });
  const at = h('input', { name: 'at', type: 'datetime-local', step: 1 });
  const timezone = h('input', {
    name: 'timezone',
    list: 'timezones',
    placeholder: 'local time',
    autocomplete: 'off',
  });
  const zones = h('datalist', { id: 'timezones' });
  const channel = h('input', { name: 'reply_to_channel_id', inputmode: 'numeric', autocomplete: 'off' });
  const preview = h('div', { class: 'preview', 'aria-live': 'polite' });
  const errorText = h('p', { class: 'form-error', role: 'alert', hidden: true });
  const save = h('button', { type: 'submit' }, 'Save');
  const cancel = h('button', { type: 'button', class: 'ghost' }, 'Cancel');
  const title = h('h3', {}, 'New schedule');
  return {
    id,
    task,
    kindCron,
    kindAt,
    cron,
    at,
    timezone,
    zones,
    channel,
    preview,
    errorText,
    save,
    cancel,
    title,
  };
}

/** Creates the form; `onSaved` runs after the server accepted it. */
export function createScheduleForm(handlers: { onSaved(): void; onCancel(): void }): ScheduleForm {
  const {
    id,
    task,
    kindCron,
    kindAt,
    cron,
    at,
    timezone,
    zones,
    channel,
    preview,
    errorText,
    save,
    cancel,
    title,
  } = formControls();
  const cronField = field('Cron', cron, 'minute hour day month weekday, in the time zone below');
  const atField = field('At', at);
  const element = h(
    'form',
    { class: 'schedule-form', id: 'schedule-form', novalidate: true },
    title,
    field('Name', id, 'letters, digits, . _ -'),
    field('Task', task, 'a question for the agent, or a tool line such as FETCH_URL: https://…'),
    h(
      'fieldset',
      { class: 'kind' },
      h('legend', {}, 'Runs'),
      h('label', {}, kindCron, ' repeatedly'),
      h('label', {}, kindAt, ' once'),
    ),
    cronField,
    atField,
    field('Time zone', timezone),
    zones,
    field('Discord channel for the result (optional)', channel),
    preview,
    errorText,
    h('div', { class: 'form-actions' }, save, cancel),
  );
  let editing: string | undefined;
  let previewTimer: number | undefined;
  let previewSeq = 0;

  const zoneNames =
    (Intl as unknown as { supportedValuesOf?: (key: string) => string[] }).supportedValuesOf?.('timeZone') ??
    [];
  replaceChildren(zones, ...zoneNames.map((name) => h('option', { value: name })));

  function value(): ScheduleInput {
    const entry: ScheduleInput = { id: id.value.trim(), task: task.value.trim() };
    if (kindCron.checked) entry.cron = cron.value.trim();
    // datetime-local gives "2025-06-01T09:00" or with seconds: a wall-clock time in the zone.
    else entry.at = at.value;
    if (timezone.value.trim() !== '') entry.timezone = timezone.value.trim();
    if (channel.value.trim() !== '') entry.reply_to_channel_id = channel.value.trim();
    return entry;
  }

  function syncKind(): void {
    cronField.hidden = !kindCron.checked;
    atField.hidden = kindCron.checked;
  }

  function showError(failure: unknown): void {
    errorText.textContent = failure instanceof ApiError ? failure.message : String(failure);
    errorText.hidden = false;
  }

  async function updatePreview(): Promise<void> {
    const seq = ++previewSeq;
    const entry = value();
    if ((entry.cron ?? entry.at ?? '') === '') {
      replaceChildren(preview);
      return;
    }
    try {
      const answer = await sendJson<PreviewAnswer>('/api/schedules/preview', {
        schedule: { ...entry, id: entry.id || 'preview', task: entry.task || 'preview' },
      });
      if (seq !== previewSeq) return;
      errorText.hidden = true;
      replaceChildren(
        preview,
        h('span', { class: 'label' }, `Next runs (${answer.timezone})`),
        answer.nextRuns.length > 0
          ? h(
              'ul',
              { class: 'next-runs' },
              ...answer.nextRuns.map((time) => h('li', {}, formatTimeIn(time, answer.timezone))),
            )
          : h('p', { class: 'muted' }, 'This never runs: the time is in the past.'),
      );
    } catch (failure) {
      if (seq !== previewSeq) return;
      replaceChildren(preview);
      showError(failure);
    }
  }

  element.addEventListener('input', () => {
    syncKind();
    clearTimeout(previewTimer);
    previewTimer = window.setTimeout(() => void updatePreview(), 250);
  });
  element.addEventListener('submit', async (event) => {
    event.preventDefault();
    errorText.hidden = true;
    save.disabled = true;
    try {
      const body = { schedule: value() };
      if (editing === undefined) await sendJson('/api/schedules', body);
      else await sendJson(`/api/schedules/${encodeURIComponent(editing)}`, body, 'PUT');
      handlers.onSaved();
    } catch (failure) {
      showError(failure);
    } finally {
      save.disabled = false;
    }
  });
  cancel.addEventListener('click', () => handlers.onCancel());

  return {
    element,
    edit(schedule, timeZone) {
      editing = schedule?.id;
      title.textContent = schedule ? `Edit "${schedule.id}"` : 'New schedule';
      id.value = schedule?.id ?? '';
      task.value = schedule?.task ?? '';
      kindCron.checked = schedule?.at === undefined;
      kindAt.checked = schedule?.at !== undefined;
      cron.value = schedule?.cron ?? '';
      at.value = schedule?.at
        ? wallTimeIn(schedule.at, timeZone ?? Intl.DateTimeFormat().resolvedOptions().timeZone)
        : '';
      timezone.value = schedule?.timezone ?? '';
      channel.value = schedule?.reply_to_channel_id ?? '';
      errorText.hidden = true;
      replaceChildren(preview);
      syncKind();
      if (schedule) void updatePreview();
      id.focus();
    },
  };
}
