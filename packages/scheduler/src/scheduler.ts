import { dirname } from 'node:path';
import { type Logger, silentLogger } from '@macstats/core';
import { ensurePrivateDir } from '@macstats/core/internal';
import { type Clock, systemClock } from './clock.js';
import { resolveSettings } from './defaults.js';
import { FileWatcher } from './file-watcher.js';
import { nextRunTimes, scheduleZone } from './next-run-times.js';
import { type ActiveRun, runTask } from './run-task.js';
import { scheduleSignature } from './schedule.js';
import { ScheduleLoader } from './schedule-loader.js';
import { SchedulerCore } from './scheduler-core.js';
import type { SchedulerCoreOptions } from './scheduler-core-options.js';
import { type SchedulerErrorCode, schedulerError } from './scheduler-errors.js';
import { schedulerStorage } from './scheduler-storage.js';
import type { Scheduler, SchedulerEvent, SchedulerOptions, ScheduleStatus } from './scheduler-types.js';
import { isValidTimezone } from './zoned-time.js';

/**
 * Creates a scheduler for a `schedules.json`: it sleeps until the next due time, runs the task
 * through `execute`, records each run, and keeps a one-shot from ever running twice, also across
 * restarts. Only one scheduler per state folder fires at a time; others wait for the lock.
 *
 * @example
 * const scheduler = createScheduler({
 *   file: join(home, 'schedules.json'),
 *   execute: createTaskExecutor({ tools, agent }),
 *   onDeliver: (schedule, result) => bot.post(schedule.reply_to_channel_id, formatDelivery(schedule, result)),
 * });
 * await scheduler.start();
 */
export function createScheduler(options: SchedulerOptions): Scheduler {
  if (options.timezone !== undefined && !isValidTimezone(options.timezone)) {
    throw schedulerError('INVALID_OPTION', `timezone "${options.timezone}" is not an IANA time zone.`);
  }
  const settings = resolveSettings(options);
  const clock: Clock = options.clock ?? systemClock;
  const logger: Logger = options.logger ?? silentLogger;
  const { file, stateDir, lock, history, store, source } = schedulerStorage(options, settings);

  let started = false;
  let draining = false;
  let lockTimer: unknown;
  let reloadQueued = false;

  const emit = (event: SchedulerEvent) => {
    try {
      options.onEvent?.(event);
    } catch (error) {
      logger.error({ err: error }, 'onEvent threw');
    }
    if (event.type === 'error') options.onError?.(event.error);
  };
  const fail = (code: SchedulerErrorCode, message: string, cause?: unknown) => {
    const error = schedulerError(code, message, cause === undefined ? undefined : { cause });
    logger.error({ code, err: cause }, message);
    emit({ type: 'error', error });
  };

  const loader = new ScheduleLoader({ source, logger, emit, fail, changed: () => core.tick() });
  const core = createCore(
    options,
    { settings, clock, logger, lock, store, history, emit, fail },
    loader,
    () => armLockRetry(),
  );

  const watcher = new FileWatcher({
    file: file ?? source.description,
    clock,
    intervalMs: settings.reloadIntervalMs,
    // A shared source is polled; only a file can be watched.
    watch: settings.watch && options.source === undefined,
    logger,
    onChange: () => queueReload(),
  });

  function queueReload(): void {
    if (reloadQueued || !started) return;
    reloadQueued = true;
    void core.enqueue(async () => {
      reloadQueued = false;
      await loader.load(false);
    });
  }

  /** Tries to lead; when the lock is held, or cannot be reached (a database away), tries again later. */
  async function tryLeadOrRetry(): Promise<boolean> {
    try {
      if (await core.tryLead()) return true;
    } catch (error) {
      fail(
        'LOCK_UNAVAILABLE',
        `Cannot reach ${lock.description} (${(error as Error).message}); trying again.`,
        error,
      );
    }
    armLockRetry();
    return false;
  }

  function armLockRetry(): void {
    clock.clearTimeout(lockTimer);
    lockTimer = clock.setTimeout(() => {
      if (!started || draining) return;
      void core.enqueue(async () => {
        if (await tryLeadOrRetry()) await core.tick();
      });
    }, settings.lockRetryMs);
  }

  return {
    get isLeader() {
      return core.isLeader;
    },
    async start() {
      if (started) return;
      started = true;
      draining = false;
      if (stateDir !== undefined) await ensurePrivateDir(stateDir);
      if (file !== undefined) await ensurePrivateDir(dirname(file));
      await core.enqueue(async () => {
        await tryLeadOrRetry();
        await loader.load(true);
      });
      watcher.start();
    },
    async stop() {
      if (!started) return;
      started = false;
      watcher.stop();
      clock.clearTimeout(lockTimer);
      await core.shutdown();
    },
    async drain(drainOptions) {
      if (!started) return;
      draining = true;
      clock.clearTimeout(lockTimer);
      logger.info({}, 'draining: no run starts now; waiting for the runs in progress');
      await core.drain(drainOptions?.signal);
    },
    reload: () => core.enqueue(() => loader.load(false)),
    runNow(id, runOptions) {
      if (!started) {
        return Promise.reject(
          schedulerError('SCHEDULER_NOT_STARTED', 'The scheduler is not started; call start() first.'),
        );
      }
      return core.runNow(id, runOptions);
    },
    whenIdle: () => core.whenIdle(),
    list: (): ScheduleStatus[] => loader.schedules.map((schedule) => core.status(schedule)),
    errors: () => [...loader.errors],
    dryRun(count) {
      return loader.schedules.map((schedule) => {
        const timezone = scheduleZone(schedule, options.timezone);
        const done = core.status(schedule).done;
        const times = done ? [] : nextRunTimes(schedule, count, new Date(clock.now()), { timezone });
        return { id: schedule.id, timezone, times };
      });
    },
  };
}

/** The run loop, given what the scheduler resolved: it runs tasks and delivers their results. */
function createCore(
  options: SchedulerOptions,
  parts: Pick<
    SchedulerCoreOptions,
    'settings' | 'clock' | 'logger' | 'lock' | 'store' | 'history' | 'emit' | 'fail'
  >,
  loader: ScheduleLoader,
  onLost: () => void,
): SchedulerCore {
  const { clock, settings, fail } = parts;
  return new SchedulerCore({
    ...parts,
    schedules: () => loader.schedules,
    zoneOf: (schedule) => scheduleZone(schedule, options.timezone),
    signatureOf: (schedule) => scheduleSignature(schedule, options.timezone),
    startRun: (schedule, due, manual): ActiveRun =>
      runTask(schedule, due, options.execute, clock, settings.taskTimeoutMs, manual),
    deliver: async (schedule, result) => {
      try {
        return (await options.onDeliver?.(schedule, result)) !== false;
      } catch (error) {
        fail(
          'DELIVERY_FAILED',
          `Delivering the result of schedule "${schedule.id}" failed; it stays pending and is delivered again at the next start.`,
          error,
        );
        return false;
      }
    },
    onLost,
  });
}
