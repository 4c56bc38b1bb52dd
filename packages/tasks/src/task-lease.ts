import type { Logger } from '@macstats/core';
import type { TaskStore } from './task-store.js';

/**
 * Runs `work` holding `store`'s lease on task `id` (a store without leases: runs it as it is).
 * The lease is renewed every third of its length; when a renewal fails (another host took the
 * task, the database is gone) the signal given to `work` aborts, and the store's fenced writes
 * refuse anything it still tries. Resolves undefined, without running `work`, while another host
 * holds the task.
 */
export async function withTaskLease<T>(
  store: TaskStore,
  id: string,
  logger: Logger,
  work: (lost: AbortSignal) => Promise<T>,
): Promise<{ value: T } | undefined> {
  const lost = new AbortController();
  if (!store.claim) return { value: await work(lost.signal) };
  if (!(await store.claim(id))) return undefined;
  const renewMs = Math.max(50, Math.floor((store.leaseMs ?? 15_000) / 3));
  const timer = setInterval(() => {
    store.claim?.(id).then(
      (held) => {
        if (!held) lost.abort(new Error(`another host took task ${id}`));
      },
      (error: unknown) => {
        logger.warn({ err: error, task: id }, `could not renew the lease on task ${id}; its step stops`);
        lost.abort(error);
      },
    );
  }, renewMs);
  try {
    return { value: await work(lost.signal) };
  } finally {
    clearInterval(timer);
    await store.release?.(id).catch(() => {});
  }
}
