// What the sandbox costs on top of the program itself: the same reads through RUN_CMD and through
// a bare execFile, in the same run, printed as ratios. Bounded: a few hundred short processes.
import { execFile } from 'node:child_process';
import { mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { createRunCmdTool } from '../src/index.js';

const run = promisify(execFile);
const ROUNDS = 150;

const home = realpathSync(mkdtempSync(join(tmpdir(), 'runcmd-bench-')));
const base = join(home, '.mac-stats');
mkdirSync(join(base, 'logs'), { recursive: true });
writeFileSync(join(base, 'notes.txt'), 'line\n'.repeat(1_000));
for (let index = 0; index < 200; index++)
  writeFileSync(join(base, 'logs', `day-${index}.log`), 'ok\nerror here\n');
const tool = createRunCmdTool({ homeDir: home, maxConcurrent: 1 });
const signal = new AbortController().signal;

async function time(label: string, task: () => Promise<unknown>): Promise<number> {
  await task(); // warm up
  const started = performance.now();
  for (let round = 0; round < ROUNDS; round++) await task();
  const perCall = (performance.now() - started) / ROUNDS;
  console.log(`${label.padEnd(44)} ${perCall.toFixed(2)} ms/call`);
  return perCall;
}

try {
  const bareCat = await time('bare execFile cat (baseline)', () =>
    run('/bin/cat', [join(base, 'notes.txt')]),
  );
  const toolCat = await time('RUN_CMD cat notes.txt', () => tool.run('cat notes.txt', { signal }));
  const bareGrep = await time('bare execFile grep -r over 200 files (baseline)', () =>
    run('/bin/grep', ['-r', '-e', 'error', join(base, 'logs')]),
  );
  const toolGrep = await time('RUN_CMD grep -r error logs (own walk)', () =>
    tool.run('grep -r error logs', { signal }),
  );
  const refusal = await time('RUN_CMD refusal (cat ../x, no process)', () =>
    tool.run('cat ../x', { signal }),
  );
  console.log('');
  console.log(`cat: RUN_CMD / bare        = ${(toolCat / bareCat).toFixed(2)}x`);
  console.log(`grep -r: RUN_CMD / bare    = ${(toolGrep / bareGrep).toFixed(2)}x`);
  console.log(`refusal / bare cat         = ${(refusal / bareCat).toFixed(3)}x`);
} finally {
  rmSync(home, { recursive: true, force: true });
}
