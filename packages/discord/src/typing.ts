import type { Logger } from '@macstats/core';
import type { Timers } from './timers.js';

/**
 * Shows "typing…" once the answer has taken `delayMs` (0: at once) and renews it every
 * `intervalMs` until the returned function is called, so an answer ready within the delay costs
 * no typing request. A failed renewal is logged and the next one tried.
 */
export function startTyping(
  send: () => Promise<void>,
  intervalMs: number,
  timers: Timers,
  logger: Logger,
  delayMs = 0,
): () => void {
  let stopped = false;
  let handle: unknown;
  const tick = () => {
    if (stopped) return;
    send().catch((error: unknown) => logger.debug({ err: error }, 'typing indicator failed'));
    handle = timers.setTimeout(tick, intervalMs);
  };
  if (delayMs > 0) handle = timers.setTimeout(tick, delayMs);
  else tick();
  return () => {
    stopped = true;
    timers.clearTimeout(handle);
  };
}
