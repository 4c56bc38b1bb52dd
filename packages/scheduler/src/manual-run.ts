import type { MacstatsError } from '@macstats/core';
import type { LockHolder } from './process-lock.js';
import type { RunRecord } from './run-history.js';
import type { Schedule } from './schedule.js';
import { schedulerError } from './scheduler-errors.js';
import type { RunNowOptions, RunResult } from './scheduler-types.js';

/** A started run, as the core hands it back: settles once recorded and delivered. */
export interface StartedRun {
  startedAt: number;
  settled: Promise<{ record: RunRecord; result?: RunResult }>;
}

/** What {@link runManually} needs from the scheduler core. Everything but `enqueue` is called inside the queue. */
export interface ManualRunHost {
  enqueue(step: () => Promise<void>): Promise<void>;
  isLeader(): boolean;
  isStopping(): boolean;
  /** The lock's holder as last seen while waiting for it. */
  holder(): LockHolder | undefined;
  /** Checks the lock file still names this process (and gives up leading when not). */
  stillLeader(): Promise<boolean>;
  find(id: string): Schedule | undefined;
  isRunning(id: string): boolean;
  /** Saves a manual `running` marker in the state (so a crash mid-run is reported), nothing else. */
  markRunning(id: string, start: number): Promise<void>;
  /** Starts the run through the timed runs' path, marked manual. */
  start(schedule: Schedule): StartedRun;
  now(): number;
}

/**
 * Runs one schedule now: checks, inside the core's queue, that this process leads, the id
 * exists and the schedule is not running, then starts it and resolves with its result once it
 * is recorded and delivered. It changes no firing state: a manual run is a test of the task.
 */
export function runManually(
  host: ManualRunHost,
  id: string,
  options: RunNowOptions = {},
): Promise<RunResult> {
  return new Promise<RunResult>((resolve, reject) => {
    const step = async () => {
      const refusal = await refuse(host, id);
      if (refusal !== undefined) {
        reject(refusal);
        return;
      }
      const schedule = host.find(id) as Schedule;
      try {
        await host.markRunning(id, host.now());
      } catch (error) {
        reject(
          schedulerError('STATE_WRITE_FAILED', `Cannot save the scheduler state; "${id}" did not start.`, {
            cause: error,
          }),
        );
        return;
      }
      const run = host.start(schedule);
      run.settled.then(({ result }) => {
        if (result !== undefined) resolve(result);
        else reject(schedulerError('SCHEDULER_STOPPED', `The scheduler was stopped while "${id}" ran.`));
      }, reject);
      try {
        options.onStart?.({ id, startedAt: new Date(run.startedAt) });
      } catch {
        // The caller's notification failing does not concern the run.
      }
    };
    host.enqueue(() => step().catch(reject)).catch(reject);
  });
}

/** Why `id` cannot run now, or `undefined` when it can. */
async function refuse(host: ManualRunHost, id: string): Promise<MacstatsError | undefined> {
  if (host.isStopping()) {
    return schedulerError('SCHEDULER_STOPPED', 'The scheduler is stopping; no run starts now.');
  }
  if (!host.isLeader() || !(await host.stillLeader())) {
    const holder = host.holder();
    const who =
      holder === undefined ? 'Another process' : `Another process (pid ${holder.pid} on ${holder.hostname})`;
    return schedulerError('NOT_LEADER', `${who} runs the schedules; only it can run "${id}" now.`);
  }
  if (host.find(id) === undefined) {
    return schedulerError('UNKNOWN_SCHEDULE', `There is no schedule named "${id}".`);
  }
  if (host.isRunning(id)) {
    return schedulerError('ALREADY_RUNNING', `Schedule "${id}" is running already; wait for it to finish.`);
  }
  return undefined;
}
