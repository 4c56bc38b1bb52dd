import { createHash } from 'node:crypto';
import type { RunResult } from './scheduler-types.js';
import type { ScheduleState } from './state-store.js';

/**
 * A finished run's result not yet known to be delivered. It is saved in the schedule's state in
 * the same write that records the run, and dropped once `onDeliver` accepted it.
 */
export interface PendingDelivery {
  deliveryId: string;
  text: string;
  isError: boolean;
  outcome: RunResult['outcome'];
  due: string;
  start: string;
  durationMs: number;
  manual?: true;
}

/** How many results one schedule keeps waiting for delivery; the oldest go first past it. */
export const MAX_PENDING_PER_SCHEDULE = 20;

/**
 * The id of one run's delivery: the same on every host and after every restart (it comes from the
 * schedule id, the due time and the start), 20 characters, so a Discord nonce (at most 25)
 * leaves room for a part number.
 */
export function deliveryIdOf(id: string, due: string, start: string): string {
  return createHash('sha256').update(`${id}\n${due}\n${start}`).digest('base64url').slice(0, 20);
}

/** The pending record of a result. */
export function pendingOf(result: RunResult): PendingDelivery {
  const pending: PendingDelivery = {
    deliveryId: result.deliveryId,
    text: result.text,
    isError: result.isError,
    outcome: result.outcome,
    due: result.due.toISOString(),
    start: result.startedAt.toISOString(),
    durationMs: result.durationMs,
  };
  if (result.manual) pending.manual = true;
  return pending;
}

/** The result a pending record stands for, to deliver it again. */
export function resultOf(pending: PendingDelivery): RunResult {
  const result: RunResult = {
    text: pending.text,
    isError: pending.isError,
    outcome: pending.outcome,
    due: new Date(pending.due),
    startedAt: new Date(pending.start),
    durationMs: pending.durationMs,
    deliveryId: pending.deliveryId,
  };
  if (pending.manual) result.manual = true;
  return result;
}

/** Adds a result to a schedule's pending deliveries, keeping at most {@link MAX_PENDING_PER_SCHEDULE}. */
export function addPending(record: ScheduleState, pending: PendingDelivery): PendingDelivery[] {
  const list = [...(record.pending ?? []), pending];
  const dropped = list.splice(0, Math.max(0, list.length - MAX_PENDING_PER_SCHEDULE));
  record.pending = list;
  return dropped;
}

/** Removes a delivered result; true when it was pending. */
export function removePending(record: ScheduleState, deliveryId: string): boolean {
  const list = record.pending ?? [];
  const rest = list.filter((pending) => pending.deliveryId !== deliveryId);
  if (rest.length === list.length) return false;
  if (rest.length === 0) delete record.pending;
  else record.pending = rest;
  return true;
}
