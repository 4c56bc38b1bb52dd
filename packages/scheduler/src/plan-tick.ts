import type { SchedulerSettings } from './defaults.js';
import { iso, planSchedule, type SchedulePlan } from './run-planner.js';
import type { ActiveRun } from './run-task.js';
import { isRecurring, type Schedule } from './schedule.js';
import { pruneState, type SchedulerState } from './state-store.js';

/** Per schedule id: the timing a tick planned it with and when it is next due. */
export interface Planned {
  signature: string;
  nextDue: number | undefined;
  /** A one-shot that came due during its manual run: it fires when that run ends, not skipped. */
  held?: true;
}

/** What {@link planTick} reads: the leader's state and what it planned last time. */
export interface TickInput {
  schedules: Schedule[];
  state: SchedulerState;
  planned: ReadonlyMap<string, Planned>;
  /** Plan every schedule (after a recovered state), not only those that may be due. */
  careful: boolean;
  now: number;
  settings: SchedulerSettings;
  running: ReadonlyMap<string, ActiveRun>;
  signatureOf: (schedule: Schedule) => string;
  zoneOf: (schedule: Schedule) => string;
}

/** What one tick would do: the state to save first, the plans, and the runs to start. */
export interface TickPlan {
  /** The state with every plan applied and each due run marked running; `state` is untouched. */
  next: SchedulerState;
  planned: Map<string, Planned>;
  plans: Array<[Schedule, SchedulePlan]>;
  /** Runs to start: due and not already running. */
  due: Array<[Schedule, SchedulePlan]>;
  /** Whether `next` differs from the saved state (it must be saved before anything starts). */
  changed: boolean;
}

/**
 * Plans every schedule for one tick of the leader, without side effects: a schedule planned
 * before with the same timing and not due yet is skipped (cron-parser costs about a millisecond
 * per step), and a one-shot due while its manual run goes on is held for when that run ends.
 */
export function planTick(input: TickInput): TickPlan {
  const { now, running } = input;
  const next = structuredClone(input.state);
  const planned = new Map<string, Planned>();
  const plans: Array<[Schedule, SchedulePlan]> = [];
  let changed = false;
  for (const schedule of input.schedules) {
    const signature = input.signatureOf(schedule);
    const known = input.planned.get(schedule.id);
    if (
      !input.careful &&
      known?.signature === signature &&
      next.schedules[schedule.id]?.signature === signature &&
      (known.nextDue === undefined || known.nextDue > now)
    ) {
      planned.set(schedule.id, known);
      continue;
    }
    const plan = planSchedule(
      schedule,
      input.zoneOf(schedule),
      signature,
      next.schedules[schedule.id],
      now,
      input.settings,
      input.careful,
    );
    if (plan.fire !== undefined && !isRecurring(schedule) && running.get(schedule.id)?.manual) {
      // Its one firing must not be lost as "skipped" to a test run: plan it again when that ends.
      planned.set(schedule.id, { signature, nextDue: plan.fire, held: true });
      continue;
    }
    next.schedules[schedule.id] = plan.state;
    planned.set(schedule.id, { signature, nextDue: plan.nextDue });
    changed ||= plan.changed;
    plans.push([schedule, plan]);
  }
  changed = pruneState(next, new Set(input.schedules.map((schedule) => schedule.id)), now) || changed;
  const due = plans.filter(([schedule, plan]) => plan.fire !== undefined && !running.has(schedule.id));
  for (const [schedule, plan] of due) {
    const record = next.schedules[schedule.id];
    if (record) record.running = { due: iso(plan.fire ?? now), start: iso(now) };
  }
  return { next, planned, plans, due, changed };
}
