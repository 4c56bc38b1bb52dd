import { commitRun } from './commit-run.js';
import { runManually, type StartedRun } from './manual-run.js';
import { addPending, pendingOf } from './outbox.js';
import { type Planned, planTick } from './plan-tick.js';
import type { LockHolder } from './process-lock.js';
import { ResultDelivery } from './result-delivery.js';
import type { RunRecord } from './run-history.js';
import { iso } from './run-planner.js';
import type { ActiveRun } from './run-task.js';
import type { Schedule } from './schedule.js';
import { scheduleStatus } from './schedule-status.js';
import type { SchedulerCoreOptions } from './scheduler-core-options.js';
import { isLockLost, schedulerError } from './scheduler-errors.js';
import type { RunNowOptions, RunResult, ScheduleStatus } from './scheduler-types.js';
import { emptyState, type SchedulerState } from './state-store.js';
import { recordUnrun } from './unrun-records.js';

/**
 * The leader's loop: plans every schedule against the saved state, saves the state *before*
 * starting runs (so a run happens at most once, whatever crashes), starts them, and sleeps
 * until the next due time. Every step runs through one queue, so reloads, ticks and run ends
 * never interleave.
 */
export class SchedulerCore {
  readonly #options: SchedulerCoreOptions;
  #queue: Promise<void> = Promise.resolve();
  #state: SchedulerState = emptyState();
  #leader = false;
  #careful = false;
  #waitingFor: string | undefined;
  #holder: LockHolder | undefined;
  #stopping = false;
  /** Set by `drain()`: no run starts any more; cleared by `shutdown()`. */
  #draining = false;
  /** Set on taking the lead: the next tick delivers again the results the state holds as pending. */
  #redeliver = false;
  #timer: unknown;
  /** Per schedule id: the timing it was planned with and when it is next due. */
  #planned = new Map<string, Planned>();
  readonly #running = new Map<string, ActiveRun>();
  readonly #completions = new Set<Promise<unknown>>();
  readonly #settling = new Set<Promise<void>>();
  readonly #delivery: ResultDelivery;

  constructor(options: SchedulerCoreOptions) {
    this.#options = options;
    this.#delivery = new ResultDelivery({
      options,
      state: () => this.#state,
      isLeader: () => this.#leader,
      lose: () => this.#lose(),
      enqueue: (step) => this.enqueue(step),
      track: (work) => {
        this.#settling.add(work);
        void work.finally(() => this.#settling.delete(work));
      },
    });
    // A lease found lost in the background: stop leading at once, not at the next due run.
    options.lock.onLost?.(() => {
      void this.enqueue(async () => {
        if (this.#leader) this.#lose();
      });
    });
  }

  get isLeader(): boolean {
    return this.#leader;
  }

  /** Runs `step` after every step queued before it; a failing step is reported, not thrown. */
  enqueue(step: () => Promise<void>): Promise<void> {
    const run = this.#queue.then(step).catch((error: unknown) => {
      this.#options.fail(
        'SCHEDULER_FAILED',
        `The scheduler hit an unexpected error: ${String(error)}`,
        error,
      );
    });
    this.#queue = run;
    return run;
  }

  /** Resolves when the queue is empty and every finished task's bookkeeping is done. */
  async whenIdle(): Promise<void> {
    while (true) {
      const queue = this.#queue;
      await queue;
      await Promise.all([...this.#settling]);
      // Let tasks that settled meanwhile register their bookkeeping before looking again.
      await new Promise<void>((resolve) => setImmediate(resolve));
      if (this.#queue === queue && this.#settling.size === 0) return;
    }
  }

  /** Takes the lock if it is free (or its holder is dead); on success loads the state. */
  async tryLead(): Promise<boolean> {
    const { lock, store, clock, emit } = this.#options;
    if (this.#leader) return true;
    const attempt = await lock.acquire();
    if (!attempt.acquired) {
      // Report the wait once per holder, not on every retry.
      this.#holder = attempt.holder;
      const holderKey = attempt.holder?.token ?? 'unknown';
      if (holderKey !== this.#waitingFor) {
        this.#waitingFor = holderKey;
        this.#options.logger.info({ holder: attempt.holder }, 'another scheduler holds the lock; waiting');
        emit({ type: 'lock-waiting', holder: attempt.holder });
      }
      return false;
    }
    this.#waitingFor = undefined;
    this.#holder = undefined;
    const now = clock.now();
    const loaded = await store.load(now);
    this.#state = loaded.state;
    this.#planned = new Map();
    this.#careful = loaded.recovered !== undefined;
    if (loaded.recovered !== undefined) this.#options.fail('STATE_RECOVERED', loaded.recovered);
    const interrupted: RunRecord[] = [];
    for (const [id, record] of Object.entries(this.#state.schedules)) {
      if (record.running === undefined) continue;
      interrupted.push({ id, ...record.running, durationMs: 0, outcome: 'interrupted' });
      delete record.running;
    }
    if (interrupted.length > 0) await this.#commit(interrupted);
    this.#leader = true;
    this.#redeliver = true;
    emit({ type: 'lock-acquired' });
    return true;
  }

  /** Plans every schedule now, records what was missed, starts what is due, re-arms the timer. */
  async tick(): Promise<void> {
    const { clock, settings, store, schedules, signatureOf, zoneOf } = this.#options;
    if (!this.#leader || this.#stopping || this.#draining) return;
    if (this.#redeliver) {
      this.#redeliver = false;
      this.#delivery.redeliverPending();
    }
    const now = clock.now();
    const { next, planned, plans, due, changed } = planTick({
      schedules: schedules(),
      state: this.#state,
      planned: this.#planned,
      careful: this.#careful,
      now,
      settings,
      running: this.#running,
      signatureOf,
      zoneOf,
    });
    if (due.length > 0 && !(await this.#stillLeader())) return;
    if (changed) {
      try {
        await store.save(next);
      } catch (error) {
        // A shared store refused the write: another host leads now. Fire nothing.
        if (isLockLost(error)) {
          this.#lose();
          return;
        }
        // Without the record on disk a run could repeat after a crash: run nothing, retry later.
        this.#options.fail(
          'STATE_WRITE_FAILED',
          `Cannot save ${store.description}; no run starts until it can.`,
          error,
        );
        this.#arm(now + settings.maxSleepMs);
        return;
      }
      this.#state = next;
    }
    this.#planned = planned;
    this.#careful = false;
    for (const [schedule, plan] of plans) {
      await recordUnrun(this.#options, schedule, plan, now, this.#running.get(schedule.id));
    }
    for (const [schedule, plan] of due) this.#start(schedule, plan.fire ?? now);
    const times = [...planned.values()].map((entry) => (entry.held ? undefined : entry.nextDue));
    this.#arm(Math.min(...times.map((time) => time ?? Number.POSITIVE_INFINITY)));
  }

  /** Runs one schedule now, through the queue and the timed runs' path; see `Scheduler.runNow`. */
  runNow(id: string, options?: RunNowOptions): Promise<RunResult> {
    return runManually(
      {
        enqueue: (step) => this.enqueue(step),
        isLeader: () => this.#leader,
        isStopping: () => this.#stopping || this.#draining,
        holder: () => this.#holder,
        stillLeader: () => this.#stillLeader(),
        find: (wanted) => this.#options.schedules().find((schedule) => schedule.id === wanted),
        isRunning: (wanted) => this.#running.has(wanted),
        markRunning: async (wanted, start) => {
          const record = this.#state.schedules[wanted];
          if (record === undefined) return;
          record.running = { due: iso(start), start: iso(start), manual: true };
          await this.#options.store.save(this.#state);
        },
        start: (schedule) => this.#start(schedule, this.#options.clock.now(), true),
        now: () => this.#options.clock.now(),
      },
      id,
      options,
    );
  }

  /** Status of one schedule for `list()`. */
  status(schedule: Schedule): ScheduleStatus {
    const { clock, signatureOf, zoneOf } = this.#options;
    const source = {
      state: this.#state,
      leader: this.#leader,
      planned: this.#planned,
      running: this.#running,
    };
    return scheduleStatus(schedule, { ...source, clock, signatureOf, zoneOf });
  }

  /**
   * Starts nothing from now on and resolves once every run in progress is recorded and
   * delivered, or when `signal` aborts. See `Scheduler.drain`.
   */
  async drain(signal?: AbortSignal): Promise<void> {
    this.#draining = true;
    this.#options.clock.clearTimeout(this.#timer);
    const drained = (async () => {
      // A tick in progress finishes first; the runs it started are among those waited for.
      await this.enqueue(async () => {});
      while (this.#completions.size > 0) await Promise.allSettled([...this.#completions]);
      await this.whenIdle();
    })();
    if (signal === undefined) return drained;
    if (signal.aborted) return;
    let onAbort = () => {};
    await Promise.race([
      drained,
      new Promise<void>((resolve) => {
        onAbort = resolve;
        signal.addEventListener('abort', onAbort, { once: true });
      }),
    ]);
    signal.removeEventListener('abort', onAbort);
  }

  /** Stops the timer, aborts running tasks, waits for their records, gives up the lock. */
  async shutdown(): Promise<void> {
    this.#stopping = true;
    this.#options.clock.clearTimeout(this.#timer);
    // Let a tick in progress finish first, so no run starts after the aborts below.
    await this.enqueue(async () => {});
    for (const run of this.#running.values()) {
      run.controller.abort(schedulerError('SCHEDULER_STOPPED', 'The scheduler was stopped.'));
    }
    await Promise.all([...this.#completions]);
    await this.enqueue(async () => {});
    if (this.#leader) await this.#options.lock.release();
    this.#leader = false;
    this.#stopping = false;
    this.#draining = false;
  }

  async #stillLeader(): Promise<boolean> {
    const still = await this.#options.lock.verify().catch(() => false);
    if (still) return true;
    this.#lose();
    return false;
  }

  /** Stops leading: nothing fires until the lock is taken again (the owner retries). */
  #lose(): void {
    this.#leader = false;
    this.#options.clock.clearTimeout(this.#timer);
    this.#options.emit({ type: 'lock-lost' });
    this.#options.fail(
      'LOCK_LOST',
      `The lock ${this.#options.lock.description} was taken away; not firing schedules.`,
    );
    this.#options.onLost();
  }

  #start(schedule: Schedule, due: number, manual = false): StartedRun {
    const { startRun, emit, logger, clock } = this.#options;
    const startedAt = clock.now();
    const run = startRun(schedule, due, manual);
    this.#running.set(schedule.id, run);
    logger.info({ id: schedule.id, due: iso(due), manual }, 'run started');
    emit({
      type: 'run-start',
      id: schedule.id,
      due: new Date(due),
      startedAt: new Date(startedAt),
      ...(manual ? { manual: true as const } : {}),
    });
    const completion = run.finished.then(async (finished) => {
      const settled = this.#settle(schedule, finished.record, finished.result);
      this.#settling.add(settled);
      await settled.finally(() => this.#settling.delete(settled));
      return finished;
    });
    this.#completions.add(completion);
    void completion.finally(() => this.#completions.delete(completion)).catch(() => {});
    return { startedAt, settled: completion };
  }

  async #settle(schedule: Schedule, record: RunRecord, result: RunResult | undefined): Promise<void> {
    const { emit, logger } = this.#options;
    let lost = false;
    await this.enqueue(async () => {
      // The schedule reads as running until its records are written, so whoever sees it
      // finished (a status poll, a `run-end` listener) also finds its state and history line.
      try {
        const saved = this.#state.schedules[schedule.id];
        if (saved !== undefined) {
          delete saved.running;
          const { due, start, durationMs, outcome } = record;
          saved.lastRun = { due, start, durationMs, outcome };
          if (record.manual) saved.lastRun.manual = true;
          // The outbox: the result waits for delivery in the same write that records the run.
          if (result !== undefined) {
            for (const dropped of addPending(saved, pendingOf(result)))
              logger.warn(
                { id: schedule.id, due: dropped.due },
                'too many undelivered results; dropping the oldest',
              );
          }
        }
        await this.#commit([record], saved !== undefined);
      } catch (error) {
        // A write that failed for another reason (a dropped database connection after a pause)
        // is delivered only by a host that still leads: otherwise the new leader records the run
        // as interrupted, and a post from here would be a result nobody recorded.
        if (isLockLost(error) || !(await this.#options.lock.verify().catch(() => false))) {
          lost = true;
          if (this.#leader) this.#lose();
        } else {
          // A full disk: the history line is written all the same (see #commit); the run is delivered.
          this.#options.fail(
            'STATE_WRITE_FAILED',
            `Cannot save the state after schedule "${schedule.id}" ran (${String(error)}); its run is in the history, and the state is saved with the next write.`,
            error,
          );
        }
      } finally {
        this.#running.delete(schedule.id);
      }
      // A one-shot held back during this manual run fires now.
      if (record.manual) void this.enqueue(() => this.tick());
    });
    if (lost) {
      // The new leader has recorded this run as interrupted; delivering it now would be a second voice.
      logger.warn({ ...record }, 'run finished after the lock was lost; not recorded or delivered here');
      return;
    }
    logger.info({ ...record }, 'run finished');
    emit({ type: 'run-end', id: schedule.id, record });
    if (result !== undefined) await this.#delivery.deliver(schedule, result);
  }

  /** Saves the state (unless `saveState` is false) and appends `records`; see {@link commitRun}. */
  #commit(records: RunRecord[], saveState = true): Promise<void> {
    return commitRun(this.#options, this.#state, records, saveState);
  }

  #arm(at: number): void {
    const { clock, settings } = this.#options;
    clock.clearTimeout(this.#timer);
    if (this.#stopping || this.#draining) return;
    const delay = Math.min(Math.max(0, at - clock.now()), settings.maxSleepMs);
    this.#timer = clock.setTimeout(() => void this.enqueue(() => this.tick()), delay);
  }
}
