import type { HistoryResolution } from '@macstats/metrics';

/** How a history chart's time axis looks at one resolution. */
export interface TimeAxis {
  /** The span shown, ending at the newest point: the whole range, however little data there is yet. */
  windowSeconds: number;
  /** Tick steps in seconds, smallest first; uPlot takes the first that leaves room between labels. */
  incrs: number[];
  /** A tick's label, in whole units: `16:05` for minutes and hours, `Tue 24` for days. */
  label(seconds: number): string;
}

const MINUTE = 60;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

const clock = new Intl.DateTimeFormat(undefined, { hour: '2-digit', minute: '2-digit', hourCycle: 'h23' });
const weekday = new Intl.DateTimeFormat(undefined, { weekday: 'short' });

/** `16:05`, in the page's time zone. */
export function clockLabel(seconds: number): string {
  return clock.format(new Date(seconds * 1000));
}

/** `Tue 24`, in the page's time zone. */
export function dayLabel(seconds: number): string {
  const date = new Date(seconds * 1000);
  return `${weekday.format(date)} ${date.getDate()}`;
}

const AXES: Record<HistoryResolution, TimeAxis> = {
  '1s': { windowSeconds: 5 * MINUTE, incrs: [MINUTE, 2 * MINUTE, 5 * MINUTE], label: clockLabel },
  '1m': {
    windowSeconds: HOUR,
    incrs: [5 * MINUTE, 10 * MINUTE, 15 * MINUTE, 30 * MINUTE, HOUR],
    label: clockLabel,
  },
  '5m': { windowSeconds: 6 * HOUR, incrs: [30 * MINUTE, HOUR, 2 * HOUR, 3 * HOUR], label: clockLabel },
  '1h': { windowSeconds: 7 * DAY, incrs: [DAY, 2 * DAY], label: dayLabel },
};

/**
 * The time axis of a resolution: the collector's whole span (5 minutes, 1 hour, 6 hours,
 * 7 days) with ticks on whole minutes, hours or days, so a chart opened in its first minute
 * does not zoom into its few seconds of data and label them in thousandths of a second.
 */
export function timeAxisFor(resolution: HistoryResolution): TimeAxis {
  return AXES[resolution];
}
