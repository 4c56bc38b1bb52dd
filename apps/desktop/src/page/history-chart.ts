import uPlot from 'uplot';
import { h } from './dom.js';
import { themeColor } from './theme.js';
import type { TimeAxis } from './time-axis.js';

/** One line of a chart. */
export interface ChartSeries {
  label: string;
  /** A CSS variable holding the colour: `--series-1`. */
  colorVariable: string;
  /**
   * Left out of the chart and its legend while the data shown has no value for it: a sensor the
   * machine does not have (temperature, battery).
   */
  optional?: boolean;
}

/** A time chart of several lines; x is in ms since the epoch. */
export interface HistoryChart {
  element: HTMLElement;
  /**
   * Shows the points over the axis's whole window, ending at the newest point. The figure's
   * `data-x-ticks` and `data-y-ticks` attributes hold the tick labels drawn, `|`-separated.
   */
  setData(times: number[], columns: Array<Array<number | null>>, axis: TimeAxis): void;
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
  /**
   * Tick steps of the y axis, smallest first (uPlot takes the first that leaves room): steps
   * round in the unit the labels use (`binaryIncrements` for bytes). Default: uPlot's 1, 2, 5 × 10ⁿ.
   */
  yIncrements?: number[];
}): HistoryChart {
  const element = h(
    'figure',
    { class: 'chart', 'aria-label': options.title },
    h('figcaption', {}, options.title),
  );
  const target = h('div', { class: 'chart-plot' });
  element.append(target);
  let times: number[] = [];
  let columns: Array<Array<number | null>> = options.series.map(() => []);
  let shown: boolean[] = options.series.map(() => true);
  let axis: TimeAxis | undefined;
  let xWindow: [number, number] = [0, 1];
  let plot: uPlot | undefined;

  const shownData = (): uPlot.AlignedData =>
    [times, ...columns.filter((_, index) => shown[index])] as uPlot.AlignedData;

  const width = () => Math.max(240, target.clientWidth || element.clientWidth || 600);

  function build(): void {
    plot?.destroy();
    const grid = { stroke: themeColor('--grid'), width: 1 };
    const axisStyle = { stroke: themeColor('--muted'), grid, ticks: grid };
    const format = (_: uPlot, value: number | null) => (value === null ? '–' : options.formatValue(value));
    const yScale: uPlot.Scale = options.range
      ? { range: options.range }
      : { range: (_u, _min, max) => [0, max > 0 ? max * 1.1 : 1] };
    const timeAxis = axis;
    plot = new uPlot(
      {
        width: width(),
        height: 180,
        series: [
          {},
          ...options.series
            .filter((_, index) => shown[index])
            .map((series) => ({
              label: series.label,
              stroke: themeColor(series.colorVariable),
              width: 1.5,
              value: format,
              spanGaps: false,
            })),
        ],
        scales: { x: { time: true, range: () => xWindow }, y: yScale },
        axes: [
          {
            ...axisStyle,
            space: 60,
            ...(timeAxis
              ? {
                  incrs: timeAxis.incrs,
                  values: (_u: uPlot, splits: number[]) => {
                    const labels = splits.map((split) => timeAxis.label(split));
                    element.dataset['xTicks'] = labels.join('|');
                    return labels;
                  },
                }
              : {}),
          },
          {
            ...axisStyle,
            size: options.axisSize ?? 56,
            ...(options.yIncrements ? { incrs: options.yIncrements } : {}),
            values: (_u: uPlot, splits: number[]) => {
              const labels = splits.map((value) => options.formatValue(value));
              element.dataset['yTicks'] = labels.join('|');
              return labels;
            },
          },
        ],
        legend: { live: false },
        cursor: { drag: { x: false, y: false } },
      },
      shownData(),
      target,
    );
  }

  new ResizeObserver(() => {
    if (plot && target.clientWidth > 0 && Math.abs(plot.width - width()) > 2)
      plot.setSize({ width: width(), height: 180 });
  }).observe(target);

  return {
    element,
    setData(newTimes, newColumns, newAxis) {
      times = newTimes.map((time) => time / 1000);
      columns = newColumns;
      const end = times[times.length - 1] ?? Date.now() / 1000;
      xWindow = [end - newAxis.windowSeconds, end];
      const newShown = options.series.map(
        (series, index) => !series.optional || (columns[index] ?? []).some((value) => value !== null),
      );
      // Another range or another set of lines changes the axes and the legend: draw anew.
      if (!plot || newAxis !== axis || newShown.some((value, index) => value !== shown[index])) {
        axis = newAxis;
        shown = newShown;
        build();
      } else plot.setData(shownData());
    },
    restyle: () => {
      if (plot) build();
    },
  };
}

/**
 * Tick steps for a byte axis: 1, 2 and 5 times 1, 10 and 100 of each binary unit (B, KB, MB,
 * GB, TB), so ticks fall on 50 MB/s rather than on 50,000,000 B/s (47.7 MB/s).
 */
export function binaryIncrements(): number[] {
  const steps: number[] = [];
  for (let unit = 0; unit <= 4; unit += 1)
    for (const multiple of [1, 2, 5, 10, 20, 50, 100, 200, 500]) steps.push(multiple * 1024 ** unit);
  return steps;
}
