import 'uplot/dist/uPlot.min.css';
import './styles.css';
import { sendJson } from './api.js';
import { byId } from './dom.js';
import { runJsInWorker } from './run-js.js';
import { openStream } from './stream.js';
import { setupTheme } from './theme.js';

const VIEWS = ['metrics', 'chat', 'schedules', 'settings'] as const;
type ViewName = (typeof VIEWS)[number];

/** What a view does when it is shown or hidden, or the theme changes. */
export interface View {
  show?(): void;
  hide?(): void;
  themeChanged?(): void;
}

const views = new Map<ViewName, View>();

function currentView(): ViewName {
  const name = location.hash.slice(1);
  return (VIEWS as readonly string[]).includes(name) ? (name as ViewName) : 'metrics';
}

function showView(): void {
  const active = currentView();
  for (const name of VIEWS) {
    const section = byId(`view-${name}`);
    const visible = name === active;
    if (section.hidden === !visible) continue;
    section.hidden = !visible;
    if (visible) views.get(name)?.show?.();
    else views.get(name)?.hide?.();
  }
  for (const link of document.querySelectorAll<HTMLAnchorElement>('nav a[data-view]')) {
    if (link.dataset['view'] === active) link.setAttribute('aria-current', 'page');
    else link.removeAttribute('aria-current');
  }
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
