import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import { htmlToText } from './html-to-text.js';
import { roughText } from './rough-text.js';

/** Pages at least this long (in characters) are turned into text in a worker thread. */
export const WORKER_THRESHOLD_CHARS = 256 * 1024;

// Built next to this file as dist/convert-worker.js. Running from the sources (the package's
// own unit tests) there is none, and every page is converted on the calling thread.
const WORKER_URL = new URL('./convert-worker.js', import.meta.url);
const workerBuilt = existsSync(fileURLToPath(WORKER_URL));

/** Options of {@link convertHtml}. */
export interface ConvertOptions {
  url: string;
  /** Time the worker may take; past it the page's rough text is returned instead. */
  timeoutMs: number;
  /** Aborts the conversion: the worker is ended and the promise rejects with the reason. */
  signal: AbortSignal;
}

/** The result of {@link convertHtml}: the text, and whether it is the rough fallback. */
export interface Converted {
  text: string;
  rough: boolean;
}

/**
 * Turns HTML into the model's text with `htmlToText`. A large page is converted in a worker
 * thread, so extracting it (seconds of CPU for a few MB) never stalls the caller's event loop,
 * and a conversion that outlasts `timeoutMs` is ended and replaced by the page's rough text.
 */
export function convertHtml(html: string, options: ConvertOptions): Promise<Converted> {
  if (html.length < WORKER_THRESHOLD_CHARS || !workerBuilt) {
    return Promise.resolve({ text: htmlToText(html, { url: options.url }), rough: false });
  }
  options.signal.throwIfAborted();
  return new Promise((resolve, reject) => {
    const worker = new Worker(WORKER_URL, {
      workerData: { html, url: options.url },
      // A page that would need more is given up on, like one that takes too long.
      resourceLimits: { maxOldGenerationSizeMb: 512 },
    });
    let settled = false;
    const finish = (settle: () => void) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      options.signal.removeEventListener('abort', onAbort);
      void worker.terminate();
      settle();
    };
    const fallBack = () => finish(() => resolve({ text: roughText(html), rough: true }));
    const onAbort = () => finish(() => reject(options.signal.reason));
    const timer = setTimeout(fallBack, options.timeoutMs);
    options.signal.addEventListener('abort', onAbort, { once: true });
    worker.once('message', (text: string) => finish(() => resolve({ text, rough: false })));
    worker.once('error', fallBack);
    worker.once('exit', fallBack);
  });
}
