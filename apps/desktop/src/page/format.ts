const UNITS = ['B', 'KB', 'MB', 'GB', 'TB'];

/** 1536 → "1.5 KB" (powers of 1024). */
export function formatBytes(bytes: number | null | undefined): string {
  if (bytes === null || bytes === undefined || !Number.isFinite(bytes)) return '–';
  let value = bytes;
  let unit = 0;
  while (Math.abs(value) >= 1024 && unit < UNITS.length - 1) {
    value /= 1024;
    unit += 1;
  }
  return `${value >= 100 || unit === 0 ? Math.round(value) : value.toFixed(1)} ${UNITS[unit]}`;
}

/** Bytes per second as "1.5 MB/s". */
export function formatRate(bytesPerSecond: number | null | undefined): string {
  return bytesPerSecond === null || bytesPerSecond === undefined ? '–' : `${formatBytes(bytesPerSecond)}/s`;
}

/** An axis tick in bytes per second, whole where it is whole: "50 MB/s", "1.5 KB/s". */
export function formatRateTick(bytesPerSecond: number): string {
  return formatRate(bytesPerSecond).replace(/\.0 /, ' ');
}

/** 12.345 → "12%"; null → "–". */
export function formatPercent(value: number | null | undefined): string {
  return value === null || value === undefined || !Number.isFinite(value) ? '–' : `${Math.round(value)}%`;
}

/** A duration in ms as "850 ms", "3.2 s", "4 min". */
export function formatDuration(ms: number): string {
  if (ms < 1000) return `${Math.round(ms)} ms`;
  if (ms < 60_000) return `${(ms / 1000).toFixed(1)} s`;
  if (ms < 3_600_000) return `${Math.round(ms / 60_000)} min`;
  if (ms < 172_800_000) return `${(ms / 3_600_000).toFixed(1)} h`;
  return `${Math.round(ms / 86_400_000)} days`;
}

/** A time as the reader's locale shows it, with the date when it is not today. */
export function formatTime(ms: number | string): string {
  const date = new Date(ms);
  if (Number.isNaN(date.getTime())) return String(ms);
  const today = new Date().toDateString() === date.toDateString();
  return today
    ? date.toLocaleTimeString([], { hour: '2-digit', minute: '2-digit', second: '2-digit' })
    : date.toLocaleString([], { dateStyle: 'medium', timeStyle: 'short' });
}

/** A time in a given IANA zone (a schedule's), with the date: "Mon 24 Nov, 09:00". */
export function formatTimeIn(ms: number | string, timeZone: string): string {
  const date = new Date(ms);
  try {
    return date.toLocaleString([], {
      timeZone,
      weekday: 'short',
      day: 'numeric',
      month: 'short',
      hour: '2-digit',
      minute: '2-digit',
    });
  } catch {
    return formatTime(ms);
  }
}

/**
 * The value for a `datetime-local` field showing a schedule's `at`: as written when it has no
 * offset (it is already wall time in the schedule's zone), else the same instant as wall time
 * in `timeZone`, so saving it back without the offset does not move the run.
 */
export function wallTimeIn(at: string, timeZone: string): string {
  if (!/(Z|[+-]\d\d:?\d\d)$/i.test(at)) return at.slice(0, 19);
  const date = new Date(at);
  if (Number.isNaN(date.getTime())) return '';
  const parts = Object.fromEntries(
    new Intl.DateTimeFormat('en-US', {
      timeZone,
      hourCycle: 'h23',
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      second: '2-digit',
    })
      .formatToParts(date)
      .map((part) => [part.type, part.value]),
  );
  return `${parts['year']}-${parts['month']}-${parts['day']}T${parts['hour']}:${parts['minute']}:${parts['second']}`;
}

/** A count with its noun, singular for exactly one: `1 tool`, `3 tools`. */
export function plural(count: number, one: string, many = `${one}s`): string {
  return `${count} ${count === 1 ? one : many}`;
}
