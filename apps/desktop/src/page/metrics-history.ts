import type { HistoryPoint, HistoryResolution } from '@macstats/metrics';
import { getJson } from './api.js';
import { h } from './dom.js';
import { formatRateTick } from './format.js';
import { binaryIncrements, createHistoryChart } from './history-chart.js';
import { timeAxisFor } from './time-axis.js';

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

/** The history block of the metrics view: its heading with the range picker, and the two charts. */
export interface MetricsHistory {
  elements: HTMLElement[];
  /** Reads the chosen range's history (the 5-minute one also fills the cards' sparklines). */
  load(): Promise<void>;
  /** Adds or updates the newest bucket of each resolution from a live sample. */
  add(points: Partial<Record<HistoryResolution, HistoryPoint>>): void;
  setVisible(visible: boolean): void;
  restyle(): void;
}

function createCharts() {
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
  return { usage, throughput };
}

/**
 * History charts at the collector's resolutions. Hidden charts are drawn when they show again;
 * coarse ones (their last bucket moves a little every sample) at most every 15 s, so an open
 * page costs little CPU.
 */
export function createMetricsHistory(onFirstMinute: (points: HistoryPoint[]) => void): MetricsHistory {
  const { usage, throughput } = createCharts();
  const picker = h('div', { class: 'segmented', role: 'group', 'aria-label': 'History range' });
  let resolution: HistoryResolution = '1s';
  let points: HistoryPoint[] = [];
  let capacity = 300;
  let visible = true;
  let dirty = false;
  let drawnAt = 0;

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
      void load();
    });
    picker.append(button);
  }

  function draw(force = true): void {
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
    const usageFields = [
      'cpuPercent',
      'memoryPercent',
      'swapPercent',
      'temperatureCelsius',
      'batteryPercent',
    ] as const;
    usage.setData(times, usageFields.map(column), axis);
    const rateFields = [
      'networkRxBytesPerSecond',
      'networkTxBytesPerSecond',
      'diskReadBytesPerSecond',
      'diskWriteBytesPerSecond',
    ] as const;
    throughput.setData(times, rateFields.map(column), axis);
  }

  async function load(): Promise<void> {
    const wanted = resolution;
    const answer = await getJson<HistoryAnswer>(`/api/metrics/history?resolution=${wanted}`);
    if (wanted !== resolution) return;
    points = answer.points;
    capacity = answer.capacity;
    if (wanted === '1s') onFirstMinute(points.slice(-60));
    draw();
  }

  document.addEventListener('visibilitychange', () => {
    if (document.visibilityState === 'visible' && dirty) draw();
  });

  return {
    elements: [
      h('div', { class: 'history-head' }, h('h2', {}, 'History'), picker),
      h('div', { class: 'charts' }, usage.element, throughput.element),
    ],
    load,
    add(newest) {
      const point = newest[resolution];
      if (!point) return;
      const last = points[points.length - 1];
      if (last && last.time === point.time) points[points.length - 1] = point;
      else {
        points.push(point);
        if (points.length > capacity) points.splice(0, points.length - capacity);
      }
      draw(false);
    },
    setVisible(shown) {
      visible = shown;
      if (shown && dirty) draw();
    },
    restyle() {
      usage.restyle();
      throughput.restyle();
    },
  };
}
