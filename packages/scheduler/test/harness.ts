import { join } from 'node:path';
import type { MacstatsError } from '@macstats/core';
import type { Schedule } from '../src/schedule.js';
import { createScheduler } from '../src/scheduler.js';
import type {
  ExecuteTask,
  RunResult,
  Scheduler,
  SchedulerEvent,
  SchedulerOptions,
} from '../src/scheduler-types.js';
import { FakeClock, readRuns, temporaryFolder, writeSchedules } from './helpers.js';

/** One call of `execute`, as the harness saw it. */
export interface ExecuteCall {
  id: string;
  at: string;
  signal: AbortSignal;
}

/** A scheduler on a temporary folder with a fake clock, recording calls, deliveries and events. */
export interface Harness {
  folder: string;
  file: string;
  clock: FakeClock;
  calls: ExecuteCall[];
  deliveries: Array<{ schedule: Schedule; result: RunResult }>;
  events: SchedulerEvent[];
  errors: MacstatsError[];
  scheduler: Scheduler;
  /** A new scheduler on the same folder and clock (a restart), replacing `scheduler`. */
  restart(overrides?: Partial<SchedulerOptions>): Scheduler;
  runs(): ReturnType<typeof readRuns>;
  cleanup(): Promise<void>;
}

/**
 * Builds a harness. Its `execute` records the call, then runs `task` (default: resolve
 * `ran <id>`) unless `execute` itself is overridden. Quiet
 * defaults keep timers few: UTC, no watcher, hourly file checks, long sleeps.
 */
export async function createHarness(
  entries: unknown[],
  start: string,
  overrides: Partial<SchedulerOptions> & { task?: ExecuteTask } = {},
): Promise<Harness> {
  const temporary = await temporaryFolder();
  const file = join(temporary.path, 'schedules.json');
  await writeSchedules(file, entries);
  const clock = new FakeClock(start);
  const harness: Harness = {
    folder: temporary.path,
    file,
    clock,
    calls: [],
    deliveries: [],
    events: [],
    errors: [],
    scheduler: undefined as unknown as Scheduler,
    restart(more = {}) {
      harness.scheduler = build({ ...overrides, ...more });
      return harness.scheduler;
    },
    runs: () => readRuns(join(temporary.path, 'runs.jsonl')),
    async cleanup() {
      await harness.scheduler.stop();
      await temporary.cleanup();
    },
  };
  const record: ExecuteTask = async (schedule, signal) => {
    harness.calls.push({ id: schedule.id, at: new Date(clock.now()).toISOString(), signal });
    return overrides.task ? overrides.task(schedule, signal) : `ran ${schedule.id}`;
  };
  function build({ task: _task, ...options }: Partial<SchedulerOptions> & { task?: ExecuteTask }): Scheduler {
    const scheduler = createScheduler({
      file,
      clock,
      timezone: 'UTC',
      watch: false,
      reloadIntervalMs: 3_600_000,
      maxSleepMs: 86_400_000,
      onDeliver: (schedule, result) => {
        harness.deliveries.push({ schedule, result });
      },
      onEvent: (event) => harness.events.push(event),
      onError: (error) => harness.errors.push(error),
      ...options,
      execute: options.execute ?? record,
    });
    clock.settle = () => scheduler.whenIdle();
    return scheduler;
  }
  harness.scheduler = build(overrides);
  return harness;
}
