/** Every default of `@macstats/store-postgres`, in one place. Options name the same keys. */
export const STORE_POSTGRES_DEFAULTS = {
  /** Connections in this process's pool: 10. */
  maxConnections: 10,
  /** Giving up on reaching the server: 10 s. */
  connectTimeoutMs: 10_000,
  /** A session left inside a transaction (its host paused) is ended by the server after 5 s. */
  idleInTransactionTimeoutMs: 5_000,
  /**
   * How long the scheduler's lease lasts without renewal: 15 s. A leader that dies is replaced
   * within about this long; it renews every third of it.
   */
  leaseMs: 15_000,
  /** Which schedules, state and lease rows this scheduler uses; bots sharing a database use one each. */
  scope: 'default',
  /**
   * Tries of one schedules edit when other hosts keep writing between its read and its write: 50.
   * Each failed try means another edit was written, so up to 50 edits at once all succeed.
   */
  scheduleEditAttempts: 50,
  /** Tries of one MEMORY notes update (an add, a remove) when other hosts keep writing the scope: 50. */
  noteUpdateAttempts: 50,
  /** Tries of one task update when other writers (a `task cancel`, another host) keep changing the task: 50. */
  taskUpdateAttempts: 50,
} as const;
