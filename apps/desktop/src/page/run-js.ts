/** The outcome of one RUN_JS call, as the agent reads it. */
export interface RunJsResult {
  text: string;
  isError: boolean;
}

/**
 * Runs code in a fresh sandboxed Worker (no DOM, no network: its script is served with a
 * Content-Security-Policy that allows nothing but evaluation) and ends it at the time limit.
 * The page's cookie is HttpOnly and the token never reaches page script, so the worker has no
 * way to it either.
 */
export function runJsInWorker(code: string, timeoutMs: number): Promise<RunJsResult> {
  return new Promise((resolve) => {
    let worker: Worker;
    try {
      worker = new Worker('/assets/run-js-worker.js', { name: 'run-js' });
    } catch (error) {
      resolve({ text: `The sandbox could not start: ${String(error)}`, isError: true });
      return;
    }
    const done = (result: RunJsResult) => {
      clearTimeout(timer);
      worker.terminate();
      resolve(result);
    };
    const timer = setTimeout(
      () =>
        done({ text: `Stopped: the code ran longer than the ${timeoutMs} ms time limit.`, isError: true }),
      timeoutMs,
    );
    worker.addEventListener('message', (event: MessageEvent<RunJsResult>) => {
      const data = event.data;
      if (data && typeof data.text === 'string') done({ text: data.text, isError: data.isError === true });
    });
    worker.addEventListener('error', (event) => {
      event.preventDefault();
      done({ text: `The code failed: ${event.message || 'unknown error'}`, isError: true });
    });
    worker.postMessage({ code });
  });
}
