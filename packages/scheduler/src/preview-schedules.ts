import { nextRunTimes, scheduleZone } from './next-run-times.js';
import { parseSchedules } from './parse-schedules.js';

/** One schedule's upcoming fire times, as {@link previewSchedules} lists them. */
export interface SchedulePreview {
  id: string;
  /** The zone the times are computed in. */
  timezone: string;
  times: Date[];
}

/**
 * A dry run of a `schedules.json` text without starting anything: the next `count` fire times
 * of every valid schedule after `from` (default now), and the file's problems. For the CLI;
 * a running scheduler's `dryRun` gives the same for what it has loaded.
 *
 * @example
 * const { previews, errors } = previewSchedules(await readFile(file, 'utf8'), 5);
 */
export function previewSchedules(
  json: string,
  count: number,
  options: { from?: Date | undefined; timezone?: string | undefined } = {},
): { previews: SchedulePreview[]; errors: string[] } {
  const { schedules, errors } = parseSchedules(json);
  const from = options.from ?? new Date();
  const previews = schedules.map((schedule) => {
    const timezone = scheduleZone(schedule, options.timezone);
    return { id: schedule.id, timezone, times: nextRunTimes(schedule, count, from, { timezone }) };
  });
  return { previews, errors };
}
