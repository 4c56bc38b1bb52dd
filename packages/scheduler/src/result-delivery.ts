import { removePending, resultOf } from './outbox.js';
import type { Schedule } from './schedule.js';
import type { SchedulerCoreOptions } from './scheduler-core-options.js';
import { isLockLost } from './scheduler-errors.js';
import type { RunResult } from './scheduler-types.js';
import type { SchedulerState } from './state-store.js';

/** What {@link ResultDelivery} needs from the scheduler that owns it. */
export interface DeliveryHost {
  options: Pick<SchedulerCoreOptions, 'deliver' | 'schedules' | 'logger' | 'store' | 'fail'>;
  state(): SchedulerState;
  isLeader(): boolean;
  /** Stops leading (a shared store said the lock is gone). */
  lose(): void;
  /** Runs a step through the scheduler's one queue. */
  enqueue(step: () => Promise<void>): Promise<void>;
  /** Bookkeeping the scheduler waits for in `whenIdle`. */
  track(work: Promise<void>): void;
}

/**
 * The outbox's delivery side: hands each recorded result to `deliver`, drops it from the state
 * once accepted, and on taking the lead delivers again what a crash left pending. A delivery id
 * is never handed over twice at once.
 */
export class ResultDelivery {
  readonly #host: DeliveryHost;
  /** Delivery ids being delivered by this scheduler now. */
  readonly #delivering = new Set<string>();

  constructor(host: DeliveryHost) {
    this.#host = host;
  }

  /** Hands a result to `deliver`; once accepted, removes it from the outbox (through the queue). */
  async deliver(schedule: Schedule, result: RunResult): Promise<void> {
    const id = result.deliveryId;
    if (this.#delivering.has(id)) return;
    this.#delivering.add(id);
    try {
      if (await this.#host.options.deliver(schedule, result)) {
        await this.#host.enqueue(() => this.#markDelivered(schedule.id, id));
      }
    } finally {
      this.#delivering.delete(id);
    }
  }

  /**
   * Delivers again every result the state holds as pending, in the order they were recorded:
   * a crash, a kill or a lost lease came between recording a run and delivering it. Each keeps
   * its delivery id, so a post that did happen is not made twice (see `RunResult.deliveryId`).
   */
  redeliverPending(): void {
    const { schedules, logger } = this.#host.options;
    for (const [id, record] of Object.entries(this.#host.state().schedules)) {
      const schedule = schedules().find((candidate) => candidate.id === id);
      if (schedule === undefined || record.pending === undefined) continue;
      const list = [...record.pending];
      logger.info({ id, results: list.length }, 'delivering results recorded but not yet delivered');
      this.#host.track(
        (async () => {
          for (const pending of list) await this.deliver(schedule, resultOf(pending));
        })(),
      );
    }
  }

  /** Drops a delivered result from the outbox and saves; a lost lease leaves it to the new leader. */
  async #markDelivered(id: string, deliveryId: string): Promise<void> {
    const { store, fail } = this.#host.options;
    const state = this.#host.state();
    const record = state.schedules[id];
    if (!this.#host.isLeader() || record === undefined || !removePending(record, deliveryId)) return;
    try {
      await store.save(state);
    } catch (error) {
      if (isLockLost(error)) {
        if (this.#host.isLeader()) this.#host.lose();
        return;
      }
      fail(
        'STATE_WRITE_FAILED',
        `Cannot save ${store.description} after delivering a result of schedule "${id}"; it may be delivered again.`,
        error,
      );
    }
  }
}
