#!/usr/bin/env node
// Runs the test suites again and again while another process keeps every core busy, and
// lists every test that failed even once. `pnpm test:load [--runs 5] [--concurrency 2]
// [package folder …]` (default: every package and app, and the root's repository tests).
// Run `npm test` (or at least a build) first. Exits non-zero when any test failed.
import { fork, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { findChromium } from './find-chromium.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: {
    runs: { type: 'string', default: '5' },
    concurrency: { type: 'string', default: '2' },
    'no-load': { type: 'boolean', default: false },
  },
});
const runs = Number(values.runs);
const concurrency = Number(values.concurrency);
if (!Number.isInteger(runs) || runs < 1 || !Number.isInteger(concurrency) || concurrency < 1) {
  console.error('--runs and --concurrency take a whole number of at least 1.');
  process.exit(2);
}

const allFolders = [
  '.',
  ...['packages', 'apps'].flatMap((group) =>
    readdirSync(join(root, group))
      .map((name) => `${group}/${name}`)
      .filter((folder) => existsSync(join(root, folder, 'package.json'))),
  ),
];
const folders =
  positionals.length > 0
    ? positionals.map((folder) => relative(root, join(process.cwd(), folder)) || '.')
    : allFolders;
for (const folder of folders) {
  if (!allFolders.includes(folder)) {
    console.error(`${folder} is not a package folder of this workspace (one of: ${allFolders.join(', ')}).`);
    process.exit(2);
  }
}

const chromium = findChromium();
const env = { ...process.env, FORCE_COLOR: '0', NO_COLOR: '1' };
if (chromium && 'path' in chromium) env.CHROMIUM_PATH = chromium.path;
else console.log("No Chromium found: the dashboard's browser tests will fail; run `npm test` once first.");

const reports = mkdtempSync(join(tmpdir(), 'macstats-load-'));
const vitest = join(root, 'node_modules', 'vitest', 'vitest.mjs');

/** Runs one folder's suite with a JSON report; resolves with its failures and counts. */
function runSuite(folder, run) {
  const report = join(reports, `${run}-${folder.replace(/\W+/g, '_')}.json`);
  const args = [
    vitest,
    'run',
    '--config',
    join(root, 'vitest.config.ts'),
    '--reporter=json',
    `--outputFile=${report}`,
  ];
  if (folder === '.') args.push('test/');
  const started = Date.now();
  return new Promise((resolve) => {
    const child = spawn(process.execPath, args, {
      cwd: join(root, folder),
      env,
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    let stderr = '';
    child.stderr.on('data', (chunk) => {
      stderr = (stderr + chunk).slice(-4000);
    });
    child.on('close', (code) => {
      const failures = [];
      let passed = 0;
      try {
        const json = JSON.parse(readFileSync(report, 'utf8'));
        for (const file of json.testResults) {
          const name = relative(root, file.name);
          const failed = file.assertionResults.filter((test) => test.status === 'failed');
          passed += file.assertionResults.filter((test) => test.status === 'passed').length;
          for (const test of failed) {
            const message = (test.failureMessages[0] ?? '').split('\n')[0];
            failures.push({ name: `${name} > ${test.fullName}`, message });
          }
          if (file.status === 'failed' && failed.length === 0) {
            failures.push({ name: `${name} (the file)`, message: (file.message ?? '').split('\n')[0] });
          }
        }
      } catch {
        failures.push({
          name: `${folder} (the suite)`,
          message: `vitest exited with ${code}: ${stderr.trim().split('\n').at(-1) ?? ''}`,
        });
      }
      if (code !== 0 && failures.length === 0) {
        failures.push({ name: `${folder} (the suite)`, message: `vitest exited with ${code}` });
      }
      resolve({ folder, failures, passed, seconds: (Date.now() - started) / 1000 });
    });
  });
}

/** Runs every folder's suite, `concurrency` at a time. */
async function runAll(run) {
  const queue = [...folders];
  const results = [];
  await Promise.all(
    Array.from({ length: Math.min(concurrency, queue.length) }, async () => {
      for (let folder = queue.shift(); folder !== undefined; folder = queue.shift()) {
        const result = await runSuite(folder, run);
        results.push(result);
        const status = result.failures.length === 0 ? 'ok' : `${result.failures.length} FAILED`;
        console.log(
          `run ${run}/${runs} ${folder}: ${result.passed} passed, ${status} (${result.seconds.toFixed(0)} s)`,
        );
        for (const failure of result.failures)
          console.log(`  failed: ${failure.name}: ${failure.message.slice(0, 160)}`);
      }
    }),
  );
  return results;
}

const burner = values['no-load']
  ? undefined
  : fork(join(root, 'scripts', 'cpu-burner.mjs'), [], { stdio: 'ignore' });
const stopBurner = () => burner?.kill('SIGKILL');
process.on('exit', stopBurner);
process.on('SIGINT', () => process.exit(130));
console.log(
  `${runs} runs of ${folders.length === allFolders.length ? 'every suite' : folders.join(', ')}, ${concurrency} at a time, ${burner ? 'with a CPU burner on every core' : 'without extra load'}.`,
);

const failuresByTest = new Map();
let totalPassed = 0;
for (let run = 1; run <= runs; run += 1) {
  for (const result of await runAll(run)) {
    totalPassed += result.passed;
    for (const failure of result.failures) {
      const seen = failuresByTest.get(failure.name) ?? { runs: [], message: failure.message };
      seen.runs.push(run);
      failuresByTest.set(failure.name, seen);
    }
  }
}
stopBurner();
rmSync(reports, { recursive: true, force: true });

console.log('');
if (failuresByTest.size === 0) {
  console.log(`No failures: ${runs} runs, ${totalPassed} test passes, all green under load.`);
  process.exit(0);
}
console.log(`Failed tests (${failuresByTest.size}) over ${runs} runs:`);
console.log('failed in runs | test | first message');
for (const [name, { runs: failedRuns, message }] of failuresByTest) {
  console.log(`${failedRuns.join(',').padEnd(14)} | ${name} | ${message.slice(0, 160)}`);
}
process.exit(1);
