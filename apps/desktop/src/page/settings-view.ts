import type { EvalSummary, OllamaStatus, Settings } from '../shared/ollama-types.js';
import { ApiError, getJson, sendJson } from './api.js';
import { createApprovalRulesSection } from './approval-rules.js';
import { h, replaceChildren } from './dom.js';
import { formatTime, plural } from './format.js';
import type { View } from './main.js';
import { renderInlineMarkdown } from './markdown.js';
import { createMcpServersSection } from './mcp-servers.js';
import { createSpeechServersSection } from './speech-servers.js';
import type { LiveStream } from './stream.js';

/** Settings: the Ollama host and the model, chosen from what Ollama lists. */
export function createSettingsView(
  root: HTMLElement,
  /** Told the status a save came back with: the banner follows it even when the stream missed the event. */
  onSaved: (status: OllamaStatus) => void = () => {},
  /** The live stream: the approvals waiting follow its `approvals` events. */
  stream?: LiveStream,
): View & { ollamaChanged(status: OllamaStatus): void } {
  const host = h('input', {
    id: 'settings-host',
    type: 'url',
    required: true,
    spellcheck: 'false',
    autocomplete: 'off',
  });
  const model = h('select', { id: 'settings-model' });
  const save = h('button', { type: 'submit' }, 'Save');
  const refresh = h('button', { type: 'button', class: 'ghost' }, 'List models again');
  const message = h('p', { class: 'form-message', role: 'status' });
  const status = h('p', { class: 'settings-status' });
  const notes = h('div', { class: 'settings-notes' });
  const form = h(
    'form',
    { class: 'settings-form' },
    h('label', { for: 'settings-host' }, 'Ollama address'),
    host,
    h('label', { for: 'settings-model' }, 'Model'),
    model,
    h('div', { class: 'form-actions' }, save, refresh),
    message,
  );
  const evaluation = h('section', { class: 'settings-eval', id: 'settings-eval' });
  const mcpServers = createMcpServersSection();
  const speech = createSpeechServersSection();
  const approvals = createApprovalRulesSection(stream);
  replaceChildren(
    root,
    h('h2', {}, 'Ollama'),
    status,
    form,
    notes,
    evaluation,
    mcpServers.element,
    speech.element,
    approvals.element,
  );
  let loaded = false;
  // What the user changed and has not saved yet: a load that comes back later keeps it.
  let edited = false;
  host.addEventListener('input', () => {
    edited = true;
  });
  model.addEventListener('change', () => {
    edited = true;
  });

  function showStatus(ollama: OllamaStatus): void {
    status.textContent = statusLine(ollama);
    status.dataset['state'] = ollama.problem ? 'problem' : 'ok';
  }

  function apply(settings: Settings): void {
    if (!edited) host.value = settings.host;
    fillModels(model, settings, edited ? model.value : (settings.model ?? ''));
    showStatus(settings.ollama);
    const lines = [`Saved in ${settings.settingsFile}.`];
    if (settings.environmentOverrides.length > 0) {
      lines.push(
        `${settings.environmentOverrides.join(' and ')} set in the environment ${settings.environmentOverrides.length === 1 ? 'wins' : 'win'} over the saved value at the next start.`,
      );
    }
    replaceChildren(notes, ...lines.map((line) => h('p', { class: 'note' }, ...renderInlineMarkdown(line))));
    showEvaluation(settings.evaluation, settings.ollama.model);
  }

  /** The last `macstats eval`: one row per model, best first, and a button to use the best. */
  function showEvaluation(report: EvalSummary | null, current: string | null): void {
    if (!report || report.models.length === 0) {
      replaceChildren(
        evaluation,
        h('h3', {}, 'Model evaluation'),
        h(
          'p',
          { class: 'note' },
          ...renderInlineMarkdown('Run `macstats eval` to grade the installed models on tool calling.'),
        ),
      );
      return;
    }
    const parts: HTMLElement[] = [h('h3', {}, 'Model evaluation'), evalTable(report)];
    const when = report.createdAt ? ` (${formatTime(Date.parse(report.createdAt))})` : '';
    if (report.best && report.best !== current) {
      const use = h('button', { type: 'button', id: 'settings-use-best' }, `Use ${report.best}`);
      use.addEventListener('click', () => {
        model.value = report.best ?? '';
        edited = true;
        form.requestSubmit();
      });
      parts.push(h('p', { class: 'note' }, `Best in the last evaluation${when}: ${report.best}.`), use);
    } else parts.push(h('p', { class: 'note' }, `Last evaluation${when}; the chat uses the best model.`));
    replaceChildren(evaluation, ...parts);
  }

  /** A message in the form's status line; its `commands` show as code. */
  function say(text: string): void {
    replaceChildren(message, ...renderInlineMarkdown(text));
  }

  async function load(): Promise<void> {
    try {
      apply(await getJson<Settings>('/api/settings'));
      loaded = true;
    } catch (failure) {
      say(failure instanceof ApiError ? failure.message : String(failure));
    }
  }

  form.addEventListener('submit', async (event) => {
    event.preventDefault();
    save.disabled = true;
    message.textContent = 'Saving…';
    message.dataset['state'] = '';
    try {
      const settings = await sendJson<Settings>('/api/settings', { host: host.value, model: model.value });
      edited = false;
      apply(settings);
      onSaved(settings.ollama);
      say(settings.ollama.problem ? `Saved. ${settings.ollama.problem}` : 'Saved.');
    } catch (failure) {
      say(failure instanceof ApiError ? failure.message : String(failure));
      message.dataset['state'] = 'error';
    } finally {
      save.disabled = false;
    }
  });
  refresh.addEventListener('click', () => void load());

  return {
    show: () => {
      void load();
      void mcpServers.load();
      void speech.load();
      void approvals.load();
    },
    ollamaChanged(ollama) {
      if (loaded) showStatus(ollama);
    },
  };
}

/** The last evaluation's table: one row per model, the best marked. */
function evalTable(report: EvalSummary): HTMLElement {
  const percent = (share: number) => `${Math.round(share * 100)}%`;
  return h(
    'table',
    { class: 'eval-table' },
    h(
      'thead',
      {},
      h(
        'tr',
        {},
        ...['Model', 'Mode', 'Tool calls', 'Answers', 'Planted instruction', 'Latency', 'Score'].map(
          (title) => h('th', {}, title),
        ),
      ),
    ),
    h(
      'tbody',
      {},
      ...report.models.map((entry) =>
        h(
          'tr',
          entry.model === report.best ? { class: 'best' } : {},
          h('td', {}, entry.model),
          h('td', {}, entry.mode),
          h('td', {}, percent(entry.toolCallSuccess)),
          h('td', {}, percent(entry.correctAnswers)),
          h('td', {}, entry.plantedInstructionIgnored ? 'ignored' : 'followed'),
          h('td', {}, `${Math.round(entry.medianLatencyMs)} ms`),
          h('td', {}, entry.score.toFixed(2)),
        ),
      ),
    ),
  );
}

/** What the status line says of the model server. */
function statusLine(ollama: OllamaStatus): string {
  const server = ollama.provider === 'openai' ? 'OpenAI-compatible server' : `Ollama ${ollama.version ?? ''}`;
  return ollama.reachable
    ? `${server} at ${ollama.host}: ${plural(ollama.models.length, 'model')}, chat uses ${ollama.model ?? 'none'} (checked ${formatTime(ollama.checkedAt)}).`
    : `${ollama.provider === 'openai' ? 'The OpenAI-compatible server' : 'Ollama'} is not reachable at ${ollama.host} (checked ${formatTime(ollama.checkedAt)}).`;
}

/** The model picker: automatic, then each model listed (and the chosen one, when it is not installed). */
function fillModels(model: HTMLSelectElement, settings: Settings, current: string): void {
  const names = [...settings.ollama.models];
  if (current !== '' && !names.includes(current)) names.unshift(current);
  const automatic = settings.ollama.models[0]
    ? `Automatic (${settings.ollama.models[0]})`
    : 'Automatic (first listed)';
  replaceChildren(
    model,
    h('option', { value: '' }, automatic),
    ...names.map((name) =>
      h('option', { value: name }, settings.ollama.models.includes(name) ? name : `${name} (not installed)`),
    ),
  );
  model.value = current;
}
