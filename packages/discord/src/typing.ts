import type { Logger } from '@macstats/core';
import type { Timers } from './timers.js';

/**
 * Shows "typing…" now and renews it every `intervalMs` until the returned function is called.
 * A failed renewal is logged and the next one tried.
 */
export function startTyping(
  send: () => Promise<void>,
  intervalMs: number,
  timers: Timers,
  logger: Logger,
): () => void {
  let stopped = false;
  let handle: unknown;
  const tick = () => {
    if (stopped) return;
    send().catch((error: unknown) => logger.debug({ err: error }, 'typing indicator failed'));
    handle = timers.setTimeout(tick, intervalMs);
  };
  tick();
  return () => {
    stopped = true;
    timers.clearTimeout(handle);
  };
}
