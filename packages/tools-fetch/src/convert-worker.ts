// The worker thread behind `convertHtml`: one page in, its text out, then the thread ends.
import { parentPort, workerData } from 'node:worker_threads';
import { htmlToText } from './html-to-text.js';

const { html, url } = workerData as { html: string; url: string };
parentPort?.postMessage(htmlToText(html, { url }));
