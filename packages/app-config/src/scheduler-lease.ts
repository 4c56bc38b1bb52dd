/** The bounds of `SCHEDULER_LEASE_MS`: one second to ten minutes. */
export const SCHEDULER_LEASE_BOUNDS = { minMs: 1_000, maxMs: 600_000 } as const;

/**
 * Reads `SCHEDULER_LEASE_MS`: how long the scheduler's lease on PostgreSQL (`DATABASE_URL`) lasts
 * without renewal, in milliseconds, so a dead leader is replaced within about this long. A whole
 * number within {@link SCHEDULER_LEASE_BOUNDS}; unset is undefined (the store's default, 15 s);
 * anything else is one warning and undefined.
 */
export function parseSchedulerLease(text: string | undefined): { value?: number; warning?: string } {
  const value = text?.trim().replace(/_/g, '');
  if (value === undefined || value === '') return {};
  const parsed = /^\d+$/.test(value) ? Number(value) : Number.NaN;
  if (parsed >= SCHEDULER_LEASE_BOUNDS.minMs && parsed <= SCHEDULER_LEASE_BOUNDS.maxMs)
    return { value: parsed };
  return {
    warning: `SCHEDULER_LEASE_MS="${text}" is not a lease length: use a whole number of milliseconds from ${SCHEDULER_LEASE_BOUNDS.minMs} to ${SCHEDULER_LEASE_BOUNDS.maxMs} (15000 is 15 s); the default is used.`,
  };
}
