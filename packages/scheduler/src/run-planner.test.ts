import { describe, expect, it } from 'vitest';
import { SCHEDULER_DEFAULTS } from './defaults.js';
import { type MissedRunPolicy, planSchedule } from './run-planner.js';
import { type Schedule, scheduleSignature } from './schedule.js';
import type { ScheduleState } from './state-store.js';

const policy: MissedRunPolicy = { ...SCHEDULER_DEFAULTS };
const at = (value: string) => Date.parse(value);
const hourly: Schedule = { id: 'hourly', task: 'x', cron: '0 * * * *' };
const once: Schedule = { id: 'once', task: 'x', at: '2025-06-06T12:00:00Z' };

function plan(
  schedule: Schedule,
  previous: ScheduleState | undefined,
  now: string,
  overrides = {},
  careful = false,
) {
  return planSchedule(
    schedule,
    'UTC',
    scheduleSignature(schedule),
    previous,
    at(now),
    { ...policy, ...overrides },
    careful,
  );
}

function cronState(lastDue: string): ScheduleState {
  return { signature: scheduleSignature(hourly), lastDue, updatedAt: lastDue };
}

describe('planSchedule for cron', () => {
  it('starts a new schedule from now without inventing missed runs', () => {
    const result = plan(hourly, undefined, '2025-06-06T10:30:00Z');
    expect(result.fire).toBeUndefined();
    expect(result.missed).toBeUndefined();
    expect(result.state).toMatchObject({ baseline: true, lastDue: '2025-06-06T10:30:00.000Z' });
    expect(new Date(result.nextDue ?? 0).toISOString()).toBe('2025-06-06T11:00:00.000Z');
  });

  it('fires an occurrence reached within the grace and records it as handled', () => {
    const result = plan(hourly, cronState('2025-06-06T10:00:00.000Z'), '2025-06-06T11:00:00.400Z');
    expect(new Date(result.fire ?? 0).toISOString()).toBe('2025-06-06T11:00:00.000Z');
    expect(result.state.lastDue).toBe('2025-06-06T11:00:00.000Z');
    expect(new Date(result.nextDue ?? 0).toISOString()).toBe('2025-06-06T12:00:00.000Z');
  });

  it('does not fire the same occurrence twice', () => {
    const result = plan(hourly, cronState('2025-06-06T11:00:00.000Z'), '2025-06-06T11:00:30Z');
    expect(result.fire).toBeUndefined();
    expect(result.changed).toBe(false);
  });

  it('skips runs missed while down and counts them (default policy)', () => {
    const result = plan(hourly, cronState('2025-06-06T06:00:00.000Z'), '2025-06-06T11:20:00Z');
    expect(result.fire).toBeUndefined();
    expect(result.missed).toEqual({
      count: 5,
      truncated: false,
      first: at('2025-06-06T07:00:00Z'),
      last: at('2025-06-06T11:00:00Z'),
    });
    expect(result.state.lastDue).toBe('2025-06-06T11:00:00.000Z');
  });

  it('runs the latest missed occurrence once with missedCron "run-once"', () => {
    const result = plan(hourly, cronState('2025-06-06T06:00:00.000Z'), '2025-06-06T11:20:00Z', {
      missedCron: 'run-once',
    });
    expect(new Date(result.fire ?? 0).toISOString()).toBe('2025-06-06T11:00:00.000Z');
    expect(result.missed).toMatchObject({ count: 4, last: at('2025-06-06T10:00:00Z') });
  });

  it('still runs the latest occurrence when reached within the grace after a gap', () => {
    const result = plan(hourly, cronState('2025-06-06T06:00:00.000Z'), '2025-06-06T11:00:45Z');
    expect(new Date(result.fire ?? 0).toISOString()).toBe('2025-06-06T11:00:00.000Z');
    expect(result.missed?.count).toBe(4);
  });

  it('starts afresh when the cron expression was edited', () => {
    const edited: Schedule = { ...hourly, cron: '30 * * * *' };
    const previous = cronState('2025-06-06T06:00:00.000Z');
    const result = planSchedule(
      edited,
      'UTC',
      scheduleSignature(edited),
      previous,
      at('2025-06-06T11:20:00Z'),
      policy,
    );
    expect(result.missed).toBeUndefined();
    expect(result.state).toMatchObject({ baseline: true, signature: 'cron 30 * * * * @ local' });
  });
});

describe('planSchedule for at', () => {
  it('waits for a future one-shot', () => {
    const result = plan(once, undefined, '2025-06-06T11:00:00Z');
    expect(result.fire).toBeUndefined();
    expect(result.nextDue).toBe(at('2025-06-06T12:00:00Z'));
  });

  it('fires a one-shot that is due and marks it done', () => {
    const result = plan(once, undefined, '2025-06-06T12:00:00.200Z');
    expect(result.fire).toBe(at('2025-06-06T12:00:00Z'));
    expect(result.state.done).toBe(true);
    expect(result.nextDue).toBeUndefined();
  });

  it('runs a missed one-shot less than an hour late', () => {
    expect(plan(once, undefined, '2025-06-06T12:59:00Z').fire).toBe(at('2025-06-06T12:00:00Z'));
  });

  it('gives up a one-shot more than an hour late, as missed and done', () => {
    const result = plan(once, undefined, '2025-06-06T13:00:01Z');
    expect(result.fire).toBeUndefined();
    expect(result.missed).toMatchObject({ count: 1 });
    expect(result.state.done).toBe(true);
  });

  it('never fires a one-shot that is done', () => {
    const done: ScheduleState = {
      signature: scheduleSignature(once),
      lastDue: '2025-06-06T12:00:00.000Z',
      done: true,
      updatedAt: '2025-06-06T12:00:00.000Z',
    };
    const result = plan(once, done, '2025-06-06T12:00:30Z');
    expect(result).toEqual({ state: done, changed: false });
  });

  it('is careful after the state was lost: a past one-shot counts as missed', () => {
    const result = plan(once, undefined, '2025-06-06T12:10:00Z', {}, true);
    expect(result.fire).toBeUndefined();
    expect(result.missed).toMatchObject({ count: 1 });
  });
});
