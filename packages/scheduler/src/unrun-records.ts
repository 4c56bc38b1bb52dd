import type { Logger } from '@macstats/core';
import type { RunRecord } from './run-history.js';
import { iso, type SchedulePlan } from './run-planner.js';
import type { ActiveRun } from './run-task.js';
import type { Schedule } from './schedule.js';
import type { RunHistoryStore } from './scheduler-stores.js';
import type { SchedulerEvent } from './scheduler-types.js';

/** Where {@link recordUnrun} writes. */
export interface UnrunSinks {
  history: RunHistoryStore;
  emit: (event: SchedulerEvent) => void;
  logger: Logger;
}

/**
 * Records the runs a plan will not start: those missed beyond the policy, and a due run
 * skipped because the schedule's previous (or manual) run is still going.
 */
export async function recordUnrun(
  sinks: UnrunSinks,
  schedule: Schedule,
  plan: SchedulePlan,
  now: number,
  running: ActiveRun | undefined,
): Promise<void> {
  const { history, emit, logger } = sinks;
  if (plan.missed !== undefined) {
    const missed = plan.missed;
    const record: RunRecord = {
      id: schedule.id,
      due: iso(missed.last),
      start: iso(now),
      durationMs: 0,
      outcome: 'missed',
      missed: missed.count,
      firstMissed: iso(missed.first),
    };
    if (missed.truncated) record.missedTruncated = true;
    logger.warn({ ...record }, `schedule "${schedule.id}" missed ${missed.count} run(s)`);
    await history.append(record);
    emit({ type: 'runs-missed', id: schedule.id, record });
  }
  if (plan.fire !== undefined && running !== undefined) {
    const record: RunRecord = {
      id: schedule.id,
      due: iso(plan.fire),
      start: iso(now),
      durationMs: 0,
      outcome: 'skipped',
      error: running.manual
        ? 'A manual run of this schedule was still running.'
        : 'The previous run of this schedule was still running.',
    };
    logger.warn({ ...record }, `schedule "${schedule.id}" skipped: previous run still going`);
    await history.append(record);
    emit({ type: 'run-skipped', id: schedule.id, record });
  }
}
