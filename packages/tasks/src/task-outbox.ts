import type { Logger } from '@macstats/core';
import { removeDelivery } from './task-delivery.js';
import { withTaskLease } from './task-lease.js';
import type { TaskStore } from './task-store.js';
import type { Task, TaskDelivery } from './task-types.js';

/**
 * Posts a task's delivery where it reports to. Resolves true once it is delivered (or will never
 * be: nowhere to post it), false to keep it pending for the next pass; a throw keeps it as well.
 */
export type TaskDeliver = (task: Task, delivery: TaskDelivery) => Promise<boolean>;

/** The runner's outbox: posts recorded deliveries, then clears each one from its task. */
export interface TaskOutbox {
  /** Tries every pending delivery of `tasks` that is not backing off; resolves with how many were delivered. */
  flush(tasks: readonly Task[]): Promise<number>;
}

/** An outbox over `store`; a delivery that failed is tried again `retryMs` later. */
export function createTaskOutbox(options: {
  store: TaskStore;
  deliver: TaskDeliver;
  retryMs: number;
  now: () => Date;
  logger: Logger;
}): TaskOutbox {
  const { store, logger } = options;
  const nextTry = new Map<string, number>();

  async function one(task: Task, delivery: TaskDelivery): Promise<boolean> {
    if ((nextTry.get(delivery.id) ?? 0) > options.now().getTime()) return false;
    // Several hosts: only the one holding the task's lease posts, and only a post still pending.
    const leased = await withTaskLease(store, task.id, logger, async () => {
      const current = store.claim ? await store.get(task.id) : task;
      if (!current?.deliveries?.some((pending) => pending.id === delivery.id)) return false;
      return post(current, delivery);
    });
    return leased?.value ?? false;
  }

  async function post(task: Task, delivery: TaskDelivery): Promise<boolean> {
    let delivered = false;
    try {
      delivered = await options.deliver(task, delivery);
    } catch (error) {
      logger.warn(
        { err: error, task: task.id, delivery: delivery.id },
        `posting task ${task.id}'s ${delivery.state} to ${delivery.to} failed; trying again later: ${(error as Error).message}`,
      );
    }
    if (!delivered) {
      nextTry.set(delivery.id, options.now().getTime() + options.retryMs);
      return false;
    }
    nextTry.delete(delivery.id);
    await store.update(task.id, (current) => {
      removeDelivery(current, delivery.id);
    });
    return true;
  }

  return {
    async flush(tasks) {
      let delivered = 0;
      for (const task of tasks)
        for (const delivery of task.deliveries ?? []) if (await one(task, delivery)) delivered += 1;
      return delivered;
    },
  };
}
