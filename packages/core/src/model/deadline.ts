/** A deadline: an abort signal that fires after `ms`, with a timer that is cleared when done. */
export function createDeadline(ms: number, what = 'no answer'): { signal: AbortSignal; clear(): void } {
  const controller = new AbortController();
  // A plain timer, not AbortSignal.timeout: it is cleared as soon as the work ends instead of
  // lingering for the whole time limit, and costs less per request.
  const timer = setTimeout(
    () => controller.abort(new DOMException(`${what} within ${ms} ms`, 'TimeoutError')),
    ms,
  );
  timer.unref?.();
  return { signal: controller.signal, clear: () => clearTimeout(timer) };
}
