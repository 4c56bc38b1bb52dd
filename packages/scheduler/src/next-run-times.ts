import { nextCronTimes } from './cron.js';
import { isRecurring, type Schedule } from './schedule.js';
import { schedulerError } from './scheduler-errors.js';
import { parseAtTime, systemTimezone } from './zoned-time.js';

/** Options of {@link nextRunTimes}. */
export interface NextRunTimesOptions {
  /** Zone for a schedule without its own `timezone`. Default: the system's local zone. */
  timezone?: string | undefined;
}

/**
 * The next `count` times a schedule fires strictly after `from` (default: now). A one-shot
 * `at` yields at most one time, none once it is past. Throws `SCHEDULE_INVALID` for a
 * schedule that {@link parseSchedules} would have rejected.
 *
 * @example
 * nextRunTimes({ id: 'standup', cron: '0 9 * * 1-5', task: '…', timezone: 'Europe/Berlin' }, 3);
 */
export function nextRunTimes(
  schedule: Schedule,
  count: number,
  from: Date = new Date(),
  options: NextRunTimesOptions = {},
): Date[] {
  const zone = scheduleZone(schedule, options.timezone);
  if (count <= 0) return [];
  if (isRecurring(schedule)) {
    return nextCronTimes(schedule.cron, zone, from.getTime(), count).map((ms) => new Date(ms));
  }
  const at = atMillis(schedule, zone);
  return at > from.getTime() ? [new Date(at)] : [];
}

/** The zone a schedule runs in: its own, else the given default, else the system's. */
export function scheduleZone(schedule: Schedule, defaultTimezone?: string): string {
  return schedule.timezone ?? defaultTimezone ?? systemTimezone();
}

/** The instant of a one-shot schedule, in epoch milliseconds. */
export function atMillis(schedule: Schedule, zone: string): number {
  const parsed = parseAtTime(schedule.at ?? '', zone);
  if (!parsed.ok) {
    throw schedulerError('SCHEDULE_INVALID', `Schedule "${schedule.id}": "at" ${parsed.reason}.`);
  }
  return parsed.ms;
}
