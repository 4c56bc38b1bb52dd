// How long FETCH_URL stalls its caller's event loop on a large page: the tool as built (large
// pages converted on a worker thread) against htmlToText called on the same thread, the page
// served over loopback, both measured in the same run by the longest gap between ticks of a 5 ms timer.
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { htmlToText } from '../src/html-to-text.js';

type Built = typeof import('../src/index.js');

/** A dense article of about `chars` characters. */
function denseArticle(chars: number): string {
  const parts = ['<!doctype html><html><head><title>Dense</title></head><body><article>'];
  for (let index = 0, length = 0; length < chars; index++) {
    const part = `<div><p>Paragraph ${index} with <a href="/x${index}">a link</a> and <b>bold</b> words.</p></div>`;
    parts.push(part);
    length += part.length;
  }
  parts.push('</article></body></html>');
  return parts.join('');
}

/** The longest gap between two runs of a 5 ms interval timer while `work` runs. */
async function maxStallMs(work: () => Promise<unknown>): Promise<number> {
  let last = performance.now();
  let longest = 0;
  const timer = setInterval(() => {
    const now = performance.now();
    longest = Math.max(longest, now - last);
    last = now;
  }, 5);
  // The work starts on the next turn, once the timer is armed.
  await new Promise((resolve) => setTimeout(resolve, 10));
  await work();
  // A stall at the very end is recorded when the timer runs again: let it.
  await new Promise((resolve) => setTimeout(resolve, 20));
  clearInterval(timer);
  return longest;
}

/** Prints the stall of both ways for a 1 MB page; skipped when the package is not built. */
export async function benchStall(): Promise<void> {
  let built: Built;
  try {
    built = (await import('../dist/index.js' as string)) as Built;
  } catch {
    console.log('stall: dist/ is not built (run pnpm build); skipped');
    return;
  }
  const html = denseArticle(1024 * 1024);
  const server = createServer((_request, response) => {
    response.writeHead(200, { 'content-type': 'text/html' }).end(html);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
  const tool = built.createFetchUrlTool({ allowPrivateNetwork: true, convertTimeoutMs: 60_000 });
  const signal = new AbortController().signal;
  try {
    await tool.run(url, { signal }); // warm-up
    const inline = await maxStallMs(async () => htmlToText(html, { url }));
    const worker = await maxStallMs(() => tool.run(url, { signal }));
    console.log('event-loop stall on a 1 MB article (longest gap between ticks of a 5 ms timer)');
    console.log(`  htmlToText on the caller's thread (baseline)   ${inline.toFixed(0)} ms`);
    console.log(`  FETCH_URL, converted on a worker thread        ${worker.toFixed(0)} ms`);
    console.log(`  ratio                                          ${(worker / inline).toFixed(3)}x\n`);
  } finally {
    server.close();
  }
}
