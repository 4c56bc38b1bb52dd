import type { HistoryPoint, HistoryResolution, MetricsSnapshot, ProcessMetrics } from '@macstats/metrics';
import type { TodayTotals } from '@macstats/observability';
import { getJson } from './api.js';
import { h, replaceChildren } from './dom.js';
import { formatBytes, formatDuration, formatPercent, formatRateTick, formatTime } from './format.js';
import { binaryIncrements, createHistoryChart } from './history-chart.js';
import { createInferenceBlock, type InferenceState } from './inference-block.js';
import type { View } from './main.js';
import { createMetricCards } from './metrics-cards.js';
import type { LiveStream } from './stream.js';
import { timeAxisFor } from './time-axis.js';

/** `metrics` event of the live stream: the sample and the newest bucket of each resolution. */
export interface MetricsEvent {
  snapshot: MetricsSnapshot;
  points: Partial<Record<HistoryResolution, HistoryPoint>>;
  intervalMs: number;
}

/** `GET /api/metrics/history`. */
interface HistoryAnswer {
  resolution: HistoryResolution;
  points: HistoryPoint[];
  capacity: number;
}

const RESOLUTIONS: Array<{ value: HistoryResolution; label: string }> = [
  { value: '1s', label: '5 min' },
  { value: '1m', label: '1 hour' },
  { value: '5m', label: '6 hours' },
  { value: '1h', label: '7 days' },
];

/** The metrics view: live cards, history charts at the collector's resolutions, top processes. */
export function createMetricsView(root: HTMLElement, stream: LiveStream): View {
  const cardsRoot = h('div', { class: 'cards' });
  const cards = createMetricCards(cardsRoot);
  const usage = createHistoryChart({
    title: 'Usage',
    series: [
      { label: 'CPU', colorVariable: '--series-1' },
      { label: 'Memory', colorVariable: '--series-2' },
      { label: 'Swap', colorVariable: '--series-3' },
      { label: 'Temperature °C', colorVariable: '--series-4', optional: true },
      { label: 'Battery', colorVariable: '--series-5', optional: true },
    ],
    range: [0, 100],
    formatValue: (value) => `${Math.round(value)}`,
  });
  const throughput = createHistoryChart({
    title: 'Network and disk',
    series: [
      { label: 'Net ↓', colorVariable: '--series-1' },
      { label: 'Net ↑', colorVariable: '--series-2' },
      { label: 'Disk read', colorVariable: '--series-3' },
      { label: 'Disk write', colorVariable: '--series-4' },
    ],
    formatValue: (value) => formatRateTick(value),
    yIncrements: binaryIncrements(),
    axisSize: 84,
  });
  const picker = h('div', { class: 'segmented', role: 'group', 'aria-label': 'History range' });
  const processRows = h('tbody', {});
  const processHeading = h('h3', {}, 'Top processes');
  const processTable = h(
    'table',
    { class: 'processes', id: 'processes' },
    h(
      'thead',
      {},
      h(
        'tr',
        {},
        h('th', {}, 'Process'),
        h('th', { class: 'number' }, 'PID'),
        h('th', { class: 'number' }, 'CPU'),
        h('th', { class: 'number' }, 'Memory'),
      ),
    ),
    processRows,
  );
  const footer = h('p', { class: 'updated', id: 'metrics-updated' }, 'Waiting for the first sample…');
  const inference = createInferenceBlock();
  replaceChildren(
    root,
    cardsRoot,
    h('div', { class: 'history-head' }, h('h2', {}, 'History'), picker),
    h('div', { class: 'charts' }, usage.element, throughput.element),
    h('div', { class: 'process-block' }, processHeading, h('div', { class: 'table-scroll' }, processTable)),
    inference.element,
    footer,
  );

  let resolution: HistoryResolution = '1s';
  let points: HistoryPoint[] = [];
  let capacity = 300;
  let visible = true;
  let dirty = false;

  for (const { value, label } of RESOLUTIONS) {
    const button = h(
      'button',
      {
        type: 'button',
        class: 'ghost',
        'data-resolution': value,
        'aria-pressed': String(value === resolution),
      },
      label,
    );
    button.addEventListener('click', () => {
      resolution = value;
      for (const other of picker.children) other.setAttribute('aria-pressed', String(other === button));
      void loadHistory();
    });
    picker.append(button);
  }

  let drawnAt = 0;
  function drawCharts(force = true): void {
    // Hidden charts are drawn when they show again; coarse ones (their last bucket moves a
    // little every sample) at most every 15 s, so an open page costs little CPU.
    if (!visible || document.visibilityState === 'hidden') {
      dirty = true;
      return;
    }
    if (!force && resolution !== '1s' && Date.now() - drawnAt < 15_000) return;
    dirty = false;
    drawnAt = Date.now();
    const times = points.map((point) => point.time);
    const column = (field: keyof HistoryPoint) =>
      points.map((point) => (point[field] as number | null) ?? null);
    const axis = timeAxisFor(resolution);
    usage.setData(
      times,
      [
        column('cpuPercent'),
        column('memoryPercent'),
        column('swapPercent'),
        column('temperatureCelsius'),
        column('batteryPercent'),
      ],
      axis,
    );
    throughput.setData(
      times,
      [
        column('networkRxBytesPerSecond'),
        column('networkTxBytesPerSecond'),
        column('diskReadBytesPerSecond'),
        column('diskWriteBytesPerSecond'),
      ],
      axis,
    );
  }

  async function loadHistory(): Promise<void> {
    const wanted = resolution;
    const answer = await getJson<HistoryAnswer>(`/api/metrics/history?resolution=${wanted}`);
    if (wanted !== resolution) return;
    points = answer.points;
    capacity = answer.capacity;
    if (wanted === '1s') cards.fill(points.slice(-60));
    drawCharts();
  }

  function showProcesses(snapshot: MetricsSnapshot): void {
    const list = snapshot.processes;
    if (!list) {
      processHeading.textContent = 'Top processes (reading…)';
      return;
    }
    processHeading.textContent = `Top processes by CPU (${list.total} running)`;
    const row = (process: ProcessMetrics) =>
      h(
        'tr',
        {},
        h('td', { class: 'name', title: process.name }, process.name),
        h('td', { class: 'number' }, process.pid),
        h('td', { class: 'number' }, formatPercent(process.cpuPercent)),
        h('td', { class: 'number' }, formatBytes(process.memoryBytes)),
      );
    replaceChildren(processRows, ...list.byCpu.map(row));
  }

  function onSample(event: MetricsEvent): void {
    const { snapshot } = event;
    cards.update(snapshot);
    showProcesses(snapshot);
    const uptime =
      snapshot.uptimeSeconds === null ? '' : ` · up ${formatDuration(snapshot.uptimeSeconds * 1000)}`;
    footer.textContent = `Updated ${formatTime(snapshot.time)} · every ${event.intervalMs / 1000} s while this page is open${uptime}`;
    footer.dataset['time'] = String(snapshot.time);
    const point = event.points[resolution];
    if (!point) return;
    const last = points[points.length - 1];
    if (last && last.time === point.time) points[points.length - 1] = point;
    else {
      points.push(point);
      if (points.length > capacity) points.splice(0, points.length - capacity);
    }
    drawCharts(false);
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
  document.addEventListener('visibilitychange', () => {
    if (document.visibilityState === 'visible' && dirty) drawCharts();
  });
  stream.on('hello', () => void loadHistory().catch(() => {}));

  return {
    initial(state) {
      inference.update(state.inference ?? null);
      loadToday();
      // Only when no live sample has arrived yet: a stream sample is at least as new.
      if (state.metrics && footer.dataset['time'] === undefined) onSample(state.metrics);
    },
    show() {
      visible = true;
      if (dirty) drawCharts();
    },
    hide() {
      visible = false;
    },
    themeChanged() {
      usage.restyle();
      throughput.restyle();
    },
  };
}
