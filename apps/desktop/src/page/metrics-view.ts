import type { HistoryPoint, HistoryResolution, MetricsSnapshot } from '@macstats/metrics';
import type { TodayTotals } from '@macstats/observability';
import { getJson } from './api.js';
import { h, replaceChildren } from './dom.js';
import { formatDuration, formatTime } from './format.js';
import { createInferenceBlock, type InferenceState } from './inference-block.js';
import type { View } from './main.js';
import { createMetricCards } from './metrics-cards.js';
import { createMetricsHistory } from './metrics-history.js';
import { createProcessTable } from './process-table.js';
import type { LiveStream } from './stream.js';

/** `metrics` event of the live stream: the sample and the newest bucket of each resolution. */
export interface MetricsEvent {
  snapshot: MetricsSnapshot;
  points: Partial<Record<HistoryResolution, HistoryPoint>>;
  intervalMs: number;
}

/** The metrics view: live cards, history charts at the collector's resolutions, top processes. */
export function createMetricsView(root: HTMLElement, stream: LiveStream): View {
  const cardsRoot = h('div', { class: 'cards' });
  const cards = createMetricCards(cardsRoot);
  const history = createMetricsHistory((points) => cards.fill(points));
  const processes = createProcessTable();
  const footer = h('p', { class: 'updated', id: 'metrics-updated' }, 'Waiting for the first sample…');
  const inference = createInferenceBlock();
  replaceChildren(root, cardsRoot, ...history.elements, processes.element, inference.element, footer);

  function onSample(event: MetricsEvent): void {
    const { snapshot } = event;
    cards.update(snapshot);
    processes.show(snapshot);
    const uptime =
      snapshot.uptimeSeconds === null ? '' : ` · up ${formatDuration(snapshot.uptimeSeconds * 1000)}`;
    footer.textContent = `Updated ${formatTime(snapshot.time)} · every ${event.intervalMs / 1000} s while this page is open${uptime}`;
    footer.dataset['time'] = String(snapshot.time);
    history.add(event.points);
  }

  stream.on('metrics', (data) => onSample(data as MetricsEvent));
  // Today's totals come from the app's counters (`GET /api/today`): read again after each model call.
  const loadToday = () =>
    void getJson<TodayTotals>('/api/today').then(
      (totals) => inference.today(totals),
      () => {},
    );
  stream.on('inference', (data) => {
    inference.update(data as InferenceState);
    loadToday();
  });
  stream.on('hello', () => void history.load().catch(() => {}));

  return {
    initial(state) {
      inference.update(state.inference ?? null);
      loadToday();
      // Only when no live sample has arrived yet: a stream sample is at least as new.
      if (state.metrics && footer.dataset['time'] === undefined) onSample(state.metrics);
    },
    show() {
      history.setVisible(true);
    },
    hide() {
      history.setVisible(false);
    },
    themeChanged() {
      history.restyle();
    },
  };
}
