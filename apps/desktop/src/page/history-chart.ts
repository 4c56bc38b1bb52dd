import uPlot from 'uplot';
import { h } from './dom.js';
import { themeColor } from './theme.js';

/** One line of a chart. */
export interface ChartSeries {
  label: string;
  /** A CSS variable holding the colour: `--series-1`. */
  colorVariable: string;
}

/** A time chart of several lines; x is in ms since the epoch. */
export interface HistoryChart {
  element: HTMLElement;
  setData(times: number[], columns: Array<Array<number | null>>): void;
  /** Rebuilds with the current theme's colours. */
  restyle(): void;
}

/** Creates a uPlot line chart that follows its container's width. */
export function createHistoryChart(options: {
  title: string;
  series: ChartSeries[];
  /** Fixed y range (0–100 for percentages); grows with the data when absent. */
  range?: [number, number];
  formatValue: (value: number) => string;
  /** Width of the y axis in CSS pixels (room for its labels). Default 56. */
  axisSize?: number;
}): HistoryChart {
  const element = h(
    'figure',
    { class: 'chart', 'aria-label': options.title },
    h('figcaption', {}, options.title),
  );
  const target = h('div', { class: 'chart-plot' });
  element.append(target);
  let data: uPlot.AlignedData = [[], ...options.series.map(() => [])];
  let plot: uPlot | undefined;

  const width = () => Math.max(240, target.clientWidth || element.clientWidth || 600);

  function build(): void {
    plot?.destroy();
    const grid = { stroke: themeColor('--grid'), width: 1 };
    const axis = { stroke: themeColor('--muted'), grid, ticks: grid };
    const format = (_: uPlot, value: number | null) => (value === null ? '–' : options.formatValue(value));
    const yScale: uPlot.Scale = options.range
      ? { range: options.range }
      : { range: (_u, _min, max) => [0, max > 0 ? max * 1.1 : 1] };
    plot = new uPlot(
      {
        width: width(),
        height: 180,
        series: [
          {},
          ...options.series.map((series) => ({
            label: series.label,
            stroke: themeColor(series.colorVariable),
            width: 1.5,
            value: format,
            spanGaps: false,
          })),
        ],
        scales: { x: { time: true }, y: yScale },
        axes: [
          axis,
          {
            ...axis,
            size: options.axisSize ?? 56,
            values: (_u, splits) => splits.map((value) => options.formatValue(value)),
          },
        ],
        legend: { live: false },
        cursor: { drag: { x: false, y: false } },
      },
      data,
      target,
    );
  }

  new ResizeObserver(() => {
    if (plot && target.clientWidth > 0 && Math.abs(plot.width - width()) > 2)
      plot.setSize({ width: width(), height: 180 });
  }).observe(target);

  return {
    element,
    setData(times, columns) {
      data = [times.map((time) => time / 1000), ...columns] as uPlot.AlignedData;
      if (!plot) build();
      else plot.setData(data);
    },
    restyle: () => {
      if (plot) build();
    },
  };
}
