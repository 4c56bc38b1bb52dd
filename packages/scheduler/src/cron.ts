import { createRequire } from 'node:module';
import type { CronExpressionParser } from 'cron-parser';
import type { IANAZone } from 'luxon';
import { schedulerError } from './scheduler-errors.js';
import { luxon } from './zoned-time.js';

type CronIterator = ReturnType<typeof CronExpressionParser.parse>;

// cron-parser and luxon cost about 10 MB resident once loaded: they are required on the first
// cron expression read, not when the package is imported, so a process with no cron schedule
// never holds them.
const require = createRequire(import.meta.url);
const cronParser = () => (require('cron-parser') as typeof import('cron-parser')).CronExpressionParser;
const ianaZone = () => luxon().IANAZone;

/** Occurrences of a cron expression in an interval, as the scheduler needs them. */
export interface CronWindow {
  /** How many occurrences (at least this many when `truncated`). */
  count: number;
  truncated: boolean;
  first?: number | undefined;
  latest?: number | undefined;
  /** The occurrence just before `latest`, if any in the interval. */
  beforeLatest?: number | undefined;
  /** The first occurrence after the interval, if the expression has one. */
  following?: number | undefined;
}

const hour = 3_600_000;
const lookback = 3 * hour;

/**
 * Checks a cron expression: 5 fields, 6 with seconds first, or a macro such as `@daily`.
 * Returns a sentence fragment saying what is wrong, or `undefined` when it is fine.
 */
export function checkCronExpression(expression: string): string | undefined {
  // A reload re-validates every entry; parsing is slow enough (~0.4 ms) to remember answers.
  if (checked.has(expression)) return checked.get(expression);
  const problem = findCronProblem(expression);
  if (checked.size >= 1_000) checked.clear();
  checked.set(expression, problem);
  return problem;
}

const checked = new Map<string, string | undefined>();

function findCronProblem(expression: string): string | undefined {
  const trimmed = expression.trim();
  if (trimmed === '') return 'is empty';
  const fields = trimmed.split(/\s+/).length;
  if (!trimmed.startsWith('@') && fields !== 5 && fields !== 6) {
    return `has ${fields} field${fields === 1 ? '' : 's'}; use 5 (minute hour day month weekday) or 6 (seconds first)`;
  }
  try {
    cronParser().parse(trimmed, { tz: 'UTC', currentDate: new Date(0) });
    return undefined;
  } catch (error) {
    const message = (error as Error).message;
    return `is invalid: ${message.charAt(0).toLowerCase()}${message.slice(1)}`;
  }
}

/**
 * The first `count` occurrences strictly after `afterMs`. `afterIsOccurrence` says `afterMs`
 * is itself an occurrence of the expression, so iteration can start right there.
 */
export function nextCronTimes(
  expression: string,
  zone: string,
  afterMs: number,
  count: number,
  afterIsOccurrence = false,
): number[] {
  const times: number[] = [];
  const iterator = iterateAfter(expression, zone, afterMs, afterIsOccurrence);
  while (times.length < count) {
    const next = iterator();
    if (next === undefined) break;
    times.push(next);
  }
  return times;
}

/**
 * Counts the occurrences strictly after `afterMs` and no later than `untilMs`, up to `limit`,
 * and finds the latest one (and the one before it) even past the limit.
 */
export function cronWindow(
  expression: string,
  zone: string,
  afterMs: number,
  untilMs: number,
  limit: number,
  afterIsOccurrence = false,
): CronWindow {
  const window: CronWindow = { count: 0, truncated: false };
  const iterator = iterateAfter(expression, zone, afterMs, afterIsOccurrence);
  let next = iterator();
  for (; next !== undefined && next <= untilMs; next = iterator()) {
    if (window.count === limit) {
      window.truncated = true;
      break;
    }
    window.count += 1;
    window.first ??= next;
    window.beforeLatest = window.latest;
    window.latest = next;
  }
  if (!window.truncated) {
    window.following = next;
    return window;
  }
  // Too many to walk: look back from the end in growing steps for the last two.
  for (const span of [60_000, hour, 24 * hour, 32 * 24 * hour, 400 * 24 * hour, 3000 * 24 * hour]) {
    const start = Math.max(afterMs, untilMs - span);
    const tail = cronWindow(expression, zone, start, untilMs, Number.POSITIVE_INFINITY);
    if (tail.count >= 2 || start === afterMs) {
      window.latest = tail.latest;
      window.beforeLatest = tail.beforeLatest;
      window.following = tail.following;
      break;
    }
  }
  return window;
}

/**
 * An iterator over occurrences strictly after `afterMs`.
 *
 * cron-parser resolves DST changes by walking forward: a wall-clock time skipped in spring runs
 * after the jump, and a fixed time in the repeated autumn hour runs once, in its first pass.
 * Started from an arbitrary instant just after a change, it can disagree with itself (it may
 * return the second pass of 01:30, or drop the shifted 02:30). So unless `afterMs` is an
 * occurrence (a link of the same chain), iteration starts just before a recent change and
 * skips what is not after `afterMs`.
 */
function iterateAfter(
  expression: string,
  zone: string,
  afterMs: number,
  afterIsOccurrence: boolean,
): () => number | undefined {
  const start = afterIsOccurrence ? afterMs : startBeforeRecentChange(zone, afterMs);
  let iterator: CronIterator;
  try {
    iterator = cronParser().parse(expression.trim(), { tz: zone, currentDate: new Date(start) });
  } catch (error) {
    throw schedulerError('SCHEDULE_INVALID', `Cron expression "${expression}" is invalid`, {
      cause: error,
    });
  }
  return () => {
    while (true) {
      let next: number;
      try {
        next = iterator.next().getTime();
      } catch {
        // cron-parser throws when the expression has no further date.
        return undefined;
      }
      if (next > afterMs) return next;
    }
  };
}

/** Just before the last UTC-offset change in the 3 hours up to `ms`; `ms` when there was none. */
function startBeforeRecentChange(zoneName: string, ms: number): number {
  const zone: IANAZone = ianaZone().create(zoneName);
  if (!zone.isValid || zone.offset(ms - lookback) === zone.offset(ms)) return ms;
  let low = ms - lookback;
  let high = ms;
  const offsetAfter = zone.offset(ms);
  // Binary search for the first instant with the current offset.
  while (high - low > 1) {
    const middle = Math.floor((low + high) / 2);
    if (zone.offset(middle) === offsetAfter) high = middle;
    else low = middle;
  }
  return low;
}
