import { readFileSync } from 'node:fs';
import { gzipSync } from 'node:zlib';
import { createTsupConfig } from '../../tsup.base.js';

/** The page's JavaScript budget, gzipped (issue 11). */
const PAGE_BUDGET_BYTES = 150 * 1024;

function reportPageSize(): Promise<void> {
  let total = 0;
  for (const name of ['app.js', 'run-js-worker.js']) {
    total += gzipSync(readFileSync(`dist/page/${name}`), { level: 9 }).length;
  }
  const kb = (total / 1024).toFixed(1);
  if (total > PAGE_BUDGET_BYTES)
    throw new Error(`The page's JavaScript is ${kb} KB gzipped, over the 150 KB budget.`);
  console.log(`page JavaScript: ${kb} KB gzipped (budget 150 KB)`);
  return Promise.resolve();
}

export default [
  // The server and CLI, for Node. `clean` stays off: the page build writes into dist/page.
  // loopback-guard is private: bundled in. app-runtime stays an import, resolved where it lives
  // (with the tool packages it depends on, which this app does not): the CLI's bundle, which
  // ships the dashboard, builds it in once for the bot and the dashboard alike.
  createTsupConfig({
    entry: ['src/main.ts', 'src/index.ts'],
    dts: false,
    clean: false,
    noExternal: ['@macstats/loopback-guard'],
  }),
  // The page, for the browser: one script, one stylesheet, and the RUN_JS worker.
  createTsupConfig({
    entry: { app: 'src/page/main.ts', 'run-js-worker': 'src/page/run-js-worker.ts' },
    outDir: 'dist/page',
    format: ['iife'],
    platform: 'browser',
    target: 'es2022',
    dts: false,
    sourcemap: false,
    minify: true,
    clean: true,
    noExternal: [/.*/],
    tsconfig: 'src/page/tsconfig.json',
    outExtension: () => ({ js: '.js' }),
    onSuccess: reportPageSize,
  }),
];
