// Measures the dashboard (issue 11): time to first paint with live numbers, and the CPU used by
// the server plus the page in the browser over a window with the page open, beside the metrics
// collector alone. Linux only (CPU time comes from /proc); loopback only; about 2.5 minutes.
import { type ChildProcess, fork, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { startFakeOllama } from '@macstats/testing';
import { chromium } from 'playwright-core';
import { CHROMIUM_ARGS, chromiumPath } from '../test/browser.js';
import { processCpuSeconds } from './proc-cpu.js';

const WINDOW_SECONDS = Number(process.env['BENCH_SECONDS'] ?? 60);
const PAINT_RUNS = 5;
const main = fileURLToPath(new URL('../dist/main.js', import.meta.url));
const baselineScript = fileURLToPath(new URL('./collector-alone.mjs', import.meta.url));
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const percent = (cpuSeconds: number) => `${((cpuSeconds / WINDOW_SECONDS) * 100).toFixed(2)}% of one core`;
const median = (values: number[]) =>
  [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? Number.NaN;

async function cpuOver(pid: number): Promise<number> {
  const before = processCpuSeconds(pid);
  await sleep(WINDOW_SECONDS * 1000);
  return processCpuSeconds(pid) - before;
}

function stop(child: ChildProcess): Promise<void> {
  return new Promise((resolve) => {
    if (child.exitCode !== null) return resolve();
    child.once('exit', () => resolve());
    child.kill('SIGTERM');
  });
}

async function baseline(): Promise<number> {
  const child = fork(baselineScript, { stdio: 'ignore' });
  await new Promise((resolve) => child.once('message', resolve));
  await sleep(3000); // past the warm-up samples
  const cpu = await cpuOver(child.pid ?? 0);
  await stop(child);
  return cpu;
}

async function startApp(home: string, ollamaUrl: string): Promise<{ child: ChildProcess; url: string }> {
  const child = spawn(process.execPath, [main, '--no-open'], {
    cwd: home,
    env: { PATH: process.env['PATH'], HOME: home, MACSTATS_HOME: home, OLLAMA_HOST: ollamaUrl },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const url = await new Promise<string>((resolve, reject) => {
    let output = '';
    child.stdout?.on('data', (chunk: Buffer) => {
      output += chunk.toString();
      const match = /macstats dashboard: (\S+)/.exec(output);
      if (match?.[1]) resolve(match[1]);
    });
    child.once('exit', (code) => reject(new Error(`the dashboard exited with ${code}`)));
  });
  return { child, url };
}

async function run(): Promise<void> {
  const home = mkdtempSync(join(tmpdir(), 'macstats-bench-'));
  const fake = await startFakeOllama();
  const app = await startApp(home, fake.url);
  const browser = await chromium.launch({
    executablePath: chromiumPath(),
    headless: true,
    args: CHROMIUM_ARGS,
  });
  try {
    const page = await browser.newPage();
    const paints: number[] = [];
    const contentful: number[] = [];
    for (let run = 0; run < PAINT_RUNS; run += 1) {
      await page.goto(run === 0 ? app.url : new URL('/', app.url).href);
      // performance.now() counts from the navigation's start: the time until live numbers show.
      const handle = await page.waitForFunction(
        () =>
          /\d+%/.test(document.querySelector('#card-cpu .gauge-label')?.textContent ?? '') &&
          performance.now(),
        undefined,
        { polling: 'raf' },
      );
      paints.push(Number(await handle.jsonValue()));
      contentful.push(
        await page.evaluate(
          () => performance.getEntriesByName('first-contentful-paint')[0]?.startTime ?? Number.NaN,
        ),
      );
    }

    await sleep(3000);
    const cdp = await browser.newBrowserCDPSession();
    type Info = { processInfo: Array<{ type: string; id: number; cpuTime: number }> };
    const before = (await cdp.send('SystemInfo.getProcessInfo')) as unknown as Info;
    const server = await cpuOver(app.child.pid ?? 0);
    const after = (await cdp.send('SystemInfo.getProcessInfo')) as unknown as Info;
    const used = (type?: string) =>
      after.processInfo
        .filter((item) => type === undefined || item.type === type)
        .reduce(
          (sum, item) =>
            sum + item.cpuTime - (before.processInfo.find((old) => old.id === item.id)?.cpuTime ?? 0),
          0,
        );
    const renderer = used('renderer');
    const browserTotal = used();
    await page.close();
    await stop(app.child);
    console.log('collector alone: measuring…');
    const alone = await baseline();

    console.log(
      `\ndashboard benchmark (${WINDOW_SECONDS} s windows, collector fast at 2 s, Node ${process.version})`,
    );
    console.log(
      `time to first paint with live numbers: median ${median(paints).toFixed(0)} ms of ${PAINT_RUNS} loads (${paints.map((value) => value.toFixed(0)).join(', ')})`,
    );
    console.log(`first contentful paint:                median ${median(contentful).toFixed(0)} ms`);
    console.log(`collector alone:           ${alone.toFixed(2)} s CPU = ${percent(alone)}`);
    console.log(`dashboard server:          ${server.toFixed(2)} s CPU = ${percent(server)}`);
    console.log(`page (renderer):           ${renderer.toFixed(2)} s CPU = ${percent(renderer)}`);
    console.log(`browser, all processes:    ${browserTotal.toFixed(2)} s CPU = ${percent(browserTotal)}`);
    console.log(`server + page vs collector alone: ${((server + renderer) / alone).toFixed(2)}x`);
    console.log(
      `server + whole browser vs collector alone: ${((server + browserTotal) / alone).toFixed(2)}x`,
    );
  } finally {
    await browser.close();
    await stop(app.child);
    await fake.close();
    rmSync(home, { recursive: true, force: true });
  }
}

await run();
