import type { ScheduleStatus } from '@macstats/scheduler';
import { describe, expect, it } from 'vitest';
import { drainScheduler } from './drain-scheduler.js';

const status = (running: boolean) =>
  ({
    schedule: { id: 'a', cron: '* * * * *', task: 't' },
    timezone: 'UTC',
    running,
    done: false,
  }) as ScheduleStatus;

describe('drainScheduler', () => {
  it('resolves once no task is running and the scheduler is idle', async () => {
    let checks = 0;
    let idled = false;
    await drainScheduler(
      {
        list: () => [status(++checks < 3)],
        whenIdle: async () => {
          idled = true;
        },
      },
      60_000,
    );
    expect(checks).toBe(3);
    expect(idled).toBe(true);
  });

  it('gives up when the grace period is over while a task still runs', async () => {
    let clock = 0;
    let checks = 0;
    await drainScheduler(
      {
        list: () => {
          checks += 1;
          clock += 400;
          return [status(true)];
        },
        whenIdle: () => new Promise(() => {}),
      },
      1000,
      () => clock,
    );
    expect(checks).toBe(3);
  });
});
