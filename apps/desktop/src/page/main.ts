import 'uplot/dist/uPlot.min.css';
import './styles.css';
import type { OllamaStatus } from '../shared/ollama-types.js';
import { getJson, sendJson } from './api.js';
import { createOllamaBanner } from './banner.js';
import { createChatView } from './chat-view.js';
import { byId } from './dom.js';
import type { InferenceState } from './inference-block.js';
import { createMetricsView, type MetricsEvent } from './metrics-view.js';
import { createNotesView } from './notes-view.js';
import { runJsInWorker } from './run-js.js';
import { createSchedulesView } from './schedules-view.js';
import { createSettingsView } from './settings-view.js';
import { createSkillsView } from './skills-view.js';
import { openStream } from './stream.js';
import { createTasksView } from './tasks-view.js';
import { setupTheme } from './theme.js';

const VIEWS = ['metrics', 'chat', 'schedules', 'tasks', 'notes', 'skills', 'settings'] as const;
type ViewName = (typeof VIEWS)[number];

/** What a view does when it is shown or hidden, or the theme changes. */
export interface View {
  show?(): void;
  hide?(): void;
  themeChanged?(): void;
  /** Takes the first paint's data from `GET /api/state`. */
  initial?(state: PageState): void;
}

/** `GET /api/state`: what the page needs for its first paint. */
export interface PageState {
  metrics?: MetricsEvent | null;
  inference?: InferenceState | null;
  ollama?: OllamaStatus;
}

function currentView(): ViewName {
  const name = location.hash.slice(1);
  return (VIEWS as readonly string[]).includes(name) ? (name as ViewName) : 'metrics';
}

const connection = byId('connection');
const stream = openStream((state) => {
  connection.hidden = state === 'open';
  connection.textContent =
    state === 'closed'
      ? 'Disconnected: the dashboard was stopped or restarted. Open the URL printed in the terminal.'
      : 'Reconnecting to the dashboard…';
  connection.dataset['state'] = state;
});

const showBanner = createOllamaBanner(byId('banner'));
const settings = createSettingsView(byId('view-settings'), (status) => showBanner(status), stream);
const views = new Map<ViewName, View>([
  ['metrics', createMetricsView(byId('view-metrics'), stream)],
  ['chat', createChatView(byId('view-chat'), stream)],
  ['schedules', createSchedulesView(byId('view-schedules'), stream)],
  ['tasks', createTasksView(byId('view-tasks'), stream)],
  ['notes', createNotesView(byId('view-notes'))],
  ['skills', createSkillsView(byId('view-skills'))],
  ['settings', settings],
]);

function showView(): void {
  const active = currentView();
  for (const name of VIEWS) {
    const section = byId(`view-${name}`);
    const visible = name === active;
    if (section.hidden === !visible && !(visible && firstShow)) continue;
    section.hidden = !visible;
    if (visible) views.get(name)?.show?.();
    else views.get(name)?.hide?.();
  }
  firstShow = false;
  for (const link of document.querySelectorAll<HTMLAnchorElement>('nav a[data-view]')) {
    if (link.dataset['view'] === active) link.setAttribute('aria-current', 'page');
    else link.removeAttribute('aria-current');
  }
}
let firstShow = true;

stream.on('ollama', (data) => {
  showBanner(data as OllamaStatus);
  settings.ollamaChanged(data as OllamaStatus);
});

// RUN_JS: the server sends code, the page runs it in a sandboxed worker and posts the result back.
stream.on('run-js', (data) => {
  const { callId, code, timeoutMs } = data as { callId: string; code: string; timeoutMs: number };
  void runJsInWorker(code, timeoutMs).then((result) =>
    sendJson(`/api/run-js/${encodeURIComponent(callId)}`, { clientId: stream.clientId, ...result }).catch(
      () => {},
    ),
  );
});

setupTheme(byId<HTMLButtonElement>('theme-toggle'), () => {
  for (const view of views.values()) view.themeChanged?.();
});
addEventListener('hashchange', showView);
showView();

function loadState(): void {
  void getJson<PageState>('/api/state')
    .then((state) => {
      if (state.ollama && state.ollama.checkedAt > 0) {
        showBanner(state.ollama);
        settings.ollamaChanged(state.ollama);
      }
      for (const view of views.values()) view.initial?.(state);
    })
    .catch(() => {});
}
loadState();
// After a reconnect the page may have missed events (the banner's, say): read the state again.
let connections = 0;
stream.on('hello', () => {
  connections += 1;
  if (connections > 1) loadState();
});
