#!/usr/bin/env node
// Adds up the "Tests  N passed | M failed (T)" summaries vitest printed for each package in a
// turbo log, and prints one closing line: "Tests: N passed, M failed, K skipped".
import { readFileSync } from 'node:fs';

const text = readFileSync(process.argv[2], 'utf8').replace(/\u001b\[[0-9;]*m/g, '');
let passed = 0;
let failed = 0;
let skipped = 0;
let runs = 0;
for (const line of text.split('\n')) {
  const summary = /\bTests\s+(.*)\(\d+\)\s*$/.exec(line);
  if (!summary || /Test Files/.test(line)) continue;
  runs++;
  for (const [, count, kind] of summary[1].matchAll(/(\d+) (passed|failed|skipped|todo)/g)) {
    if (kind === 'passed') passed += Number(count);
    else if (kind === 'failed') failed += Number(count);
    else skipped += Number(count);
  }
}
if (runs === 0) {
  console.error('No vitest summary found in the log: no test ran.');
  process.exit(1);
}
console.log(`Tests: ${passed} passed, ${failed} failed, ${skipped} skipped`);
process.exit(failed > 0 ? 1 : 0);
