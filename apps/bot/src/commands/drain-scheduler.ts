import type { Scheduler } from '@macstats/scheduler';

/** How often {@link drainScheduler} looks whether scheduled tasks are still running. */
export const DRAIN_POLL_MS = 100;

/**
 * Resolves once no scheduled task is running (its result then delivered), or after `graceMs`,
 * whichever comes first. The scheduler's `stop()` aborts whatever still runs afterwards.
 */
export async function drainScheduler(
  scheduler: Pick<Scheduler, 'list' | 'whenIdle'>,
  graceMs: number,
  now: () => number = Date.now,
): Promise<void> {
  const deadline = now() + graceMs;
  while (scheduler.list().some((status) => status.running)) {
    const left = deadline - now();
    if (left <= 0) return;
    await new Promise((resolve) => setTimeout(resolve, Math.min(DRAIN_POLL_MS, left)));
  }
  // A task that just ended is delivered through the scheduler's queue; let that finish too.
  const left = deadline - now();
  if (left > 0) {
    let timer: ReturnType<typeof setTimeout> | undefined;
    await Promise.race([
      scheduler.whenIdle(),
      new Promise((resolve) => {
        timer = setTimeout(resolve, left);
      }),
    ]);
    clearTimeout(timer);
  }
}
