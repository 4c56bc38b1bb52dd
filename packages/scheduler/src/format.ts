import type { Schedule } from './schedule.js';
import type { RunResult } from './scheduler-types.js';
import { formatInZone } from './zoned-time.js';

/** The message a bot posts for a finished run: `[Schedule: <id>] <text>`. */
export function formatDelivery(schedule: Schedule, result: Pick<RunResult, 'text'>): string {
  return `[Schedule: ${schedule.id}] ${result.text}`;
}

/** Run times as wall-clock times in a zone, joined: `2025-06-02 09:00 (+02:00 Mon), …`. */
export function formatRunTimes(times: readonly Date[], zone: string): string {
  return times.map((time) => formatInZone(time.getTime(), zone)).join(', ');
}
