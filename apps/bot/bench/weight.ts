/**
 * Weight bench: the idle resident memory (VmRSS) of `macstats start` (fake Ollama, no Discord
 * token) and of `macstats dashboard --no-open`, each next to a bare `node` started in the same
 * run; what importing each heavy library alone costs; and what installing the packed CLI puts
 * in an empty folder's node_modules. Run it with `pnpm bench` in apps/bot after a build. Linux
 * only: it reads /proc/<pid>/status.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { startFakeOllama } from '@macstats/testing';
import { installedWeight, packAndInstall } from '../test/pack-cli.js';

const here = dirname(fileURLToPath(import.meta.url));
const cli = resolve(here, '../dist/cli.js');
/** How long a process sits after its ready line before its memory is read: it is idle by then. */
const SETTLE_MS = 2_000;

/** Resident memory of `pid` in MB, from /proc. */
async function residentMb(pid: number): Promise<number> {
  const status = await readFile(`/proc/${pid}/status`, 'utf8');
  const kilobytes = Number(/VmRSS:\s+(\d+)\s+kB/.exec(status)?.[1] ?? Number.NaN);
  return kilobytes / 1024;
}

/** Starts `args` under node, waits for `ready` in its output, lets it settle and reads its RSS. */
async function idleResident(
  args: string[],
  ready: RegExp,
  env: NodeJS.ProcessEnv,
  cwd: string,
): Promise<number> {
  const child: ChildProcess = spawn(process.execPath, args, { cwd, env, stdio: ['ignore', 'pipe', 'pipe'] });
  try {
    await new Promise<void>((resolvePromise, reject) => {
      let output = '';
      const listen = (chunk: Buffer) => {
        output += chunk.toString();
        if (ready.test(output)) resolvePromise();
      };
      child.stdout?.on('data', listen);
      child.stderr?.on('data', listen);
      child.once('close', (code) => reject(new Error(`${args.join(' ')} exited (${code}):\n${output}`)));
    });
    await new Promise((resolvePromise) => setTimeout(resolvePromise, SETTLE_MS));
    return await residentMb(child.pid as number);
  } finally {
    const closed = new Promise((resolvePromise) => child.once('close', resolvePromise));
    child.kill('SIGKILL');
    await closed;
  }
}

/**
 * The median of three launches, taken one after another: a busy machine delays a process's
 * garbage collection, and one launch can read several MB high.
 */
async function medianOf3(measure: () => Promise<number>): Promise<number> {
  const values = [await measure(), await measure(), await measure()].sort((a, b) => a - b);
  return values[1] as number;
}

const format = (mb: number, bare: number) =>
  `${mb.toFixed(0).padStart(4)} MB  (${(mb / bare).toFixed(1)}x bare node)`;

const home = await mkdtemp(join(tmpdir(), 'macstats-weight-'));
const ollama = await startFakeOllama({ replies: ['idle'] });
try {
  const env = {
    PATH: process.env['PATH'] ?? '',
    HOME: home,
    MACSTATS_HOME: home,
    OLLAMA_HOST: ollama.url,
    OLLAMA_MODEL: 'llama3.2:3b',
  };
  const idle = 'setInterval(() => {}, 1000); console.log("ready")';
  const bare = await medianOf3(() => idleResident(['-e', idle], /ready/, env, home));
  const start = await medianOf3(() => idleResident([cli, 'start'], /macstats is running/, env, home));
  const dashboard = await medianOf3(() =>
    idleResident([cli, 'dashboard', '--no-open', '--port', '0'], /http:\/\/127\.0\.0\.1:\d+\//, env, home),
  );
  console.log('idle resident memory (VmRSS, median of 3 launches)');
  console.log(`  bare node            ${format(bare, bare)}`);
  console.log(`  macstats start       ${format(start, bare)}   goal <= 80 MB`);
  console.log(`  macstats dashboard   ${format(dashboard, bare)}`);

  // Each library alone, imported into a fresh node from this app's node_modules, or from the
  // composition root's for the tool packages and model-openai (the root depends on them, the app
  // does not).
  console.log('\nimport cost of one library (RSS after import, minus bare node)');
  const runtimeDir = resolve(here, '../../../packages/app-runtime');
  const libraries = [
    '@macstats/tools-browser',
    '@macstats/tools-fetch',
    '@macstats/tools-mcp',
    '@macstats/discord',
    '@macstats/store-postgres',
    '@macstats/observability',
    '@macstats/model-openai',
    '@macstats/core',
  ];
  for (const name of libraries) {
    const script = `await import(${JSON.stringify(name)}); setInterval(() => {}, 1000); console.log("ready")`;
    const fromRoot = name.startsWith('@macstats/tools-') || name === '@macstats/model-openai';
    const from = fromRoot ? runtimeDir : resolve(here, '..');
    const mb = await idleResident(['--input-type=module', '-e', script], /ready/, env, from);
    console.log(`  ${name.padEnd(26)} +${(mb - bare).toFixed(0).padStart(4)} MB`);
  }

  // What `npm install @macstats/cli` puts on a disk (dependencies from npm's cache or registry).
  const { packDir, installDir } = await packAndInstall();
  try {
    const weight = await installedWeight(join(installDir, 'node_modules'));
    console.log('\nthe packed CLI installed into an empty folder');
    console.log(
      `  node_modules         ${(weight.bytes / 1024 / 1024).toFixed(1).padStart(5)} MB in ${weight.packages} packages   goal <= 60 MB`,
    );
  } finally {
    await rm(packDir, { recursive: true, force: true });
    await rm(installDir, { recursive: true, force: true });
  }
} finally {
  await ollama.close();
  await rm(home, { recursive: true, force: true });
}
