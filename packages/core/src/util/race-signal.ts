/**
 * Waits for `promise`, or rejects with the signal's reason as soon as `signal` aborts, whichever
 * comes first. The listener is removed when the race ends, so a long-lived signal does not
 * collect one per call. Without a signal it returns `promise` itself. The losing promise is not
 * cancelled: pass the signal to the work too when it can stop.
 *
 * @example
 * const result = await raceSignal(tool.run(argument, context), context.signal);
 */
export function raceSignal<T>(promise: PromiseLike<T>, signal: AbortSignal | undefined): Promise<T> {
  if (!signal) return Promise.resolve(promise);
  if (signal.aborted) {
    // The work may still fail later; nobody waits for it any more.
    Promise.resolve(promise).catch(() => {});
    return Promise.reject(signal.reason);
  }
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(signal.reason);
    signal.addEventListener('abort', onAbort, { once: true });
    Promise.resolve(promise).then(
      (value) => {
        signal.removeEventListener('abort', onAbort);
        resolve(value);
      },
      (error: unknown) => {
        signal.removeEventListener('abort', onAbort);
        reject(error);
      },
    );
  });
}
