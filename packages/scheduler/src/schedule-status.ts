import type { Clock } from './clock.js';
import { nextRunTimes } from './next-run-times.js';
import type { Planned } from './plan-tick.js';
import type { Schedule } from './schedule.js';
import type { ScheduleStatus } from './scheduler-types.js';
import type { SchedulerState } from './state-store.js';

/** What {@link scheduleStatus} reads from the scheduler. */
export interface StatusSource {
  state: SchedulerState;
  /** A leader knows each next run from its plan; a follower computes it. */
  leader: boolean;
  planned: ReadonlyMap<string, Planned>;
  running: ReadonlySet<string> | ReadonlyMap<string, unknown>;
  clock: Clock;
  signatureOf: (schedule: Schedule) => string;
  zoneOf: (schedule: Schedule) => string;
}

/** Status of one schedule for `Scheduler.list()`: its zone, whether running or done, next and last run. */
export function scheduleStatus(schedule: Schedule, source: StatusSource): ScheduleStatus {
  const record = source.state.schedules[schedule.id];
  const current = record?.signature === source.signatureOf(schedule) ? record : undefined;
  const timezone = source.zoneOf(schedule);
  const done = current?.done === true;
  const nextRun = source.leader
    ? source.planned.get(schedule.id)?.nextDue
    : done
      ? undefined
      : nextRunTimes(schedule, 1, new Date(source.clock.now()), { timezone })[0]?.getTime();
  const status: ScheduleStatus = { schedule, timezone, running: source.running.has(schedule.id), done };
  if (nextRun !== undefined) status.nextRun = new Date(nextRun);
  const last = current?.lastRun;
  if (last !== undefined) {
    status.lastRun = {
      due: new Date(last.due),
      startedAt: new Date(last.start),
      durationMs: last.durationMs,
      outcome: last.outcome,
    };
    if (last.manual) status.lastRun.manual = true;
  }
  return status;
}
