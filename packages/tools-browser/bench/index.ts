// pnpm bench: the BROWSER tool against raw playwright-core on the same pages, served on loopback.
// Prints snapshot tokens per page (ours, the page's HTML, playwright-core's ai-mode aria snapshot,
// and Playwright MCP's own browser_snapshot, run from npm) and the time of one action through
// the tool and raw.
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { chromium } from 'playwright-core';
import { createBrowserTool, findChromium } from '../src/index.js';
import { PAGES } from './pages.js';
import { startPlaywrightMcp } from './playwright-mcp.js';

const tokens = (text: string) => Math.ceil(text.length / 4);
const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? 0;

const server = createServer((request, response) => {
  const page = PAGES[(request.url ?? '/').slice(1)];
  if (!page) return void response.writeHead(404).end();
  response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(page);
});
await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
const found = findChromium({ CHROMIUM_PATH: process.env.CHROMIUM_PATH, PATH: process.env.PATH });
if ('error' in found) throw new Error(found.error);

const tool = createBrowserTool({
  allowHosts: ['127.0.0.1'],
  executablePath: found.path,
  snapshotTokens: 100_000,
});
const raw = await chromium.launch({ executablePath: found.path, args: ['--no-sandbox', '--disable-gpu'] });
const rawPage = await raw.newPage({ viewport: { width: 1280, height: 800 } });
const context = { signal: new AbortController().signal, conversationId: 'bench' };
const playwrightMcp = await startPlaywrightMcp(found.path);
// Elements to act on in a Playwright snapshot: refs on lines of an actionable role.
const actionable = (yaml: string) =>
  yaml
    .split('\n')
    .filter((line) => /^\s*- (link|button|textbox|checkbox|combobox|radio)\b.*\[ref=/.test(line)).length;

console.log('snapshot tokens per page (about 4 characters a token)');
console.log(
  'page        html  playwright-ai  playwright-mcp  browser-tool  vs mcp  elements to act on (mcp/tool)',
);
for (const [name, html] of Object.entries(PAGES)) {
  const result = await tool.run(`open ${origin}/${name}`, context);
  const ours = typeof result === 'string' ? result : result.text;
  await rawPage.goto(`${origin}/${name}`);
  const yaml = await rawPage.ariaSnapshot({ mode: 'ai' });
  const mcp = await playwrightMcp.snapshot(`${origin}/${name}`);
  const ourRefs = new Set(ours.match(/^\[(\w+)\]|\s\[(\w+)\] /gm) ?? []).size;
  console.log(
    `${name.padEnd(10)} ${String(tokens(html)).padStart(5)} ${String(tokens(yaml)).padStart(14)} ${String(tokens(mcp)).padStart(15)} ${String(tokens(ours)).padStart(13)}  ${(tokens(ours) / tokens(mcp)).toFixed(2).padStart(6)}  ${actionable(mcp)}/${ourRefs}`,
  );
}

// One "read the page" action: the tool (parse, settle, snapshot, render) against the raw calls
// a client would make anyway (ariaSnapshotJSON and title).
const toolTimes: number[] = [];
const rawTimes: number[] = [];
for (let round = 0; round < 15; round++) {
  let started = performance.now();
  await tool.run('read', context);
  toolTimes.push(performance.now() - started);
  started = performance.now();
  await rawPage.ariaSnapshotJSON({ mode: 'ai', boxes: true });
  await rawPage.title();
  rawTimes.push(performance.now() - started);
}
console.log(
  `\none read action, median of 15: tool ${median(toolTimes).toFixed(1)} ms, raw playwright-core ${median(rawTimes).toFixed(1)} ms (the tool waits for the network and the DOM to be quiet)`,
);
await tool.close();
await playwrightMcp.close();
await raw.close();
server.close();
