import { cronWindow } from './cron.js';
import { atMillis } from './next-run-times.js';
import { isRecurring, type Schedule } from './schedule.js';
import type { ScheduleState } from './state-store.js';

/** The missed-run policy, as {@link planSchedule} applies it. */
export interface MissedRunPolicy {
  missedOneShotGraceMs: number;
  cronGraceMs: number;
  missedCron: 'skip' | 'run-once';
  missedCountLimit: number;
}

/** Runs that came due and will not happen. */
export interface MissedRuns {
  count: number;
  /** True when there were more than the policy's count limit (count is then a lower bound). */
  truncated: boolean;
  first: number;
  last: number;
}

/** What to do about one schedule at one moment. */
export interface SchedulePlan {
  /** The schedule's record after this step (the same object when nothing changed). */
  state: ScheduleState;
  changed: boolean;
  /** Start a run for this due time now. */
  fire?: number;
  missed?: MissedRuns;
  /** When to look at this schedule next; `undefined` when it will never be due again. */
  nextDue?: number | undefined;
}

/**
 * Decides, from a schedule's saved record and the current time, whether a run is due, which
 * runs were missed, and when to look next. Pure: the caller saves `state` before starting the
 * run, which is what makes a run happen at most once across restarts.
 *
 * `careful` (set after the state file was lost) treats a one-shot already past as done, since
 * nothing proves it did not run.
 */
export function planSchedule(
  schedule: Schedule,
  zone: string,
  signature: string,
  previous: ScheduleState | undefined,
  now: number,
  policy: MissedRunPolicy,
  careful = false,
): SchedulePlan {
  const fresh = previous === undefined || previous.signature !== signature;
  const state: ScheduleState = fresh
    ? { signature, lastDue: iso(now), baseline: true, updatedAt: iso(now) }
    : (previous as ScheduleState);
  // A new timing starts afresh, but results still waiting for delivery stay.
  if (fresh && previous?.pending !== undefined) state.pending = previous.pending;
  return isRecurring(schedule)
    ? planCron(schedule.cron, zone, state, fresh, now, policy)
    : planOneShot(atMillis(schedule, zone), state, fresh, now, policy, careful && fresh);
}

function planCron(
  cron: string,
  zone: string,
  state: ScheduleState,
  fresh: boolean,
  now: number,
  policy: MissedRunPolicy,
): SchedulePlan {
  const after = Date.parse(state.lastDue);
  const afterIsOccurrence = state.baseline !== true;
  const window = cronWindow(cron, zone, after, now, policy.missedCountLimit, afterIsOccurrence);
  if (window.latest === undefined) return { state, changed: fresh, nextDue: window.following };
  const latest = window.latest;
  const runLatest = now - latest <= policy.cronGraceMs || policy.missedCron === 'run-once';
  const missedCount = window.count - (runLatest ? 1 : 0);
  const next: ScheduleState = { signature: state.signature, lastDue: iso(latest), updatedAt: iso(now) };
  copyRunFields(state, next);
  const plan: SchedulePlan = {
    state: next,
    changed: true,
    nextDue: window.following,
  };
  if (runLatest) plan.fire = latest;
  if (missedCount > 0) {
    plan.missed = {
      count: missedCount,
      truncated: window.truncated,
      first: window.first ?? latest,
      last: runLatest ? (window.beforeLatest ?? latest) : latest,
    };
  }
  return plan;
}

function planOneShot(
  at: number,
  state: ScheduleState,
  fresh: boolean,
  now: number,
  policy: MissedRunPolicy,
  careful: boolean,
): SchedulePlan {
  if (state.done === true) return { state, changed: fresh };
  if (at > now) return { state, changed: fresh, nextDue: at };
  const next: ScheduleState = {
    signature: state.signature,
    lastDue: iso(at),
    done: true,
    updatedAt: iso(now),
  };
  copyRunFields(state, next);
  if (!careful && now - at <= policy.missedOneShotGraceMs) return { state: next, changed: true, fire: at };
  return { state: next, changed: true, missed: { count: 1, truncated: false, first: at, last: at } };
}

function copyRunFields(from: ScheduleState, to: ScheduleState): void {
  if (from.running !== undefined) to.running = from.running;
  if (from.lastRun !== undefined) to.lastRun = from.lastRun;
  if (from.pending !== undefined) to.pending = from.pending;
}

/** A time in ms as an ISO string, as the state and the history store times. */
export function iso(ms: number): string {
  return new Date(ms).toISOString();
}
