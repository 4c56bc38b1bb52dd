import type { Schedule } from './schedule.js';
import type { RunResult } from './scheduler-types.js';
import { formatInZone } from './zoned-time.js';

/**
 * The message a bot posts for a finished run: `[Schedule: <id>] <text>`, and for a run that
 * failed or timed out `[Schedule: <id>] The scheduled task failed: <why>`, so a failure never
 * reads as a result.
 *
 * @example
 * formatDelivery({ id: 'news', ... }, { text: 'Ollama is not reachable …', outcome: 'error' });
 * // '[Schedule: news] The scheduled task failed: Ollama is not reachable …'
 */
export function formatDelivery(
  schedule: Schedule,
  result: Pick<RunResult, 'text'> & Partial<Pick<RunResult, 'outcome'>>,
): string {
  if (result.outcome === 'error' || result.outcome === 'timeout')
    return `[Schedule: ${schedule.id}] The scheduled task failed: ${result.text}`;
  return `[Schedule: ${schedule.id}] ${result.text}`;
}

/** Run times as wall-clock times in a zone, joined: `2025-06-02 09:00 (+02:00 Mon), …`. */
export function formatRunTimes(times: readonly Date[], zone: string): string {
  return times.map((time) => formatInZone(time.getTime(), zone)).join(', ');
}
