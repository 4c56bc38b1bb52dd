import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { cpus, loadavg } from 'node:os';
import { fileURLToPath } from 'node:url';
import { METRICS_DEFAULTS } from '../src/index.js';

/**
 * The collector's own CPU cost: each configuration runs in its own child process for
 * `--seconds` (default 60) after a 20 s warm-up, all at once (about 1.5 minutes in all), and reports its CPU time (its own plus that of the
 * processes it spawned) as a percentage of one core, beside a bare /proc loop (the floor).
 * Two more children time each reader of each source, which is how the Linux source was chosen.
 */

interface RunResult {
  kind: string;
  speed: 'fast' | 'slow';
  seconds: number;
  samples: number;
  selfMs: number;
  childrenMs: number;
}

interface ReaderResult {
  source: string;
  costs: Record<string, number>;
}

const targets = { slow: 0.2, fast: 0.5 } as const;

function parseSeconds(argv: string[]): number {
  const index = argv.indexOf('--seconds');
  if (index < 0) return 60;
  const seconds = Number(argv[index + 1]);
  if (!Number.isFinite(seconds) || seconds < 5 || seconds > 150) {
    throw new Error('--seconds takes a number from 5 to 150.');
  }
  return seconds;
}

function runChild<T>(args: string[]): Promise<T> {
  const childFile = fileURLToPath(new URL('./child.mjs', import.meta.url));
  return new Promise((resolve, reject) => {
    // Plain Node on the built package: a TypeScript loader's thread would add CPU of its own.
    const child = spawn(process.execPath, ['--expose-gc', childFile, ...args], {
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => {
      output += chunk.toString();
    });
    child.on('error', reject);
    child.on('exit', (code) => {
      const line = output.trim().split('\n').pop() ?? '';
      if (code === 0 && line.startsWith('{')) resolve(JSON.parse(line) as T);
      else reject(new Error(`bench child ${args.join(' ')} exited with ${code}: ${output}`));
    });
  });
}

function percentOfOneCore(result: RunResult): number {
  return ((result.selfMs + result.childrenMs) / (result.seconds * 1000)) * 100;
}

const labels: Record<string, string> = {
  floor: 'floor: bare /proc loop',
  proc: 'collector, proc source (default)',
  systeminformation: 'collector, systeminformation source',
};

async function main(): Promise<void> {
  if (process.platform !== 'linux') {
    console.log('The metrics bench reads children CPU time and the floor from /proc: it runs on Linux only.');
    return;
  }
  const seconds = parseSeconds(process.argv.slice(2));
  if (!existsSync(fileURLToPath(new URL('../dist/index.js', import.meta.url)))) {
    throw new Error('The bench measures the built package: run the build script first.');
  }
  const { intervals } = METRICS_DEFAULTS;
  console.log(
    `@macstats/metrics bench: ${seconds} s per configuration after 20 s of warm-up, all in parallel; ${cpus().length} cores, Node ${process.version}`,
  );
  // CPU time per wake-up grows with what else the machine runs (cold caches): the ratio to the
  // floor, measured alongside, is the figure that compares across machines and runs.
  console.log(
    `load average at start: ${loadavg()[0]?.toFixed(2)} (absolute figures rise with it; × floor does not)`,
  );
  console.log(
    `periods: fast ${intervals.fastMs / 1000} s, slow ${intervals.slowMs / 1000} s; processes every ${intervals.processesMs / 1000} s, disk usage every ${intervals.fileSystemsMs / 1000} s, sensors every ${intervals.sensorsMs / 1000} s\n`,
  );
  const runs = ['floor', 'proc', 'systeminformation'].flatMap((kind) =>
    (['slow', 'fast'] as const).map((speed) => runChild<RunResult>(['run', kind, speed, String(seconds)])),
  );
  const readers = ['proc', 'systeminformation'].map((source) => runChild<ReaderResult>(['readers', source]));
  const results = await Promise.all(runs);
  const readerResults = await Promise.all(readers);

  for (const speed of ['slow', 'fast'] as const) {
    const floor = results.find((result) => result.kind === 'floor' && result.speed === speed);
    const floorPercent = floor ? percentOfOneCore(floor) : 0;
    console.log(
      `${speed} speed (every ${(speed === 'fast' ? intervals.fastMs : intervals.slowMs) / 1000} s)`,
    );
    console.log(
      '  configuration                          samples   self ms  children ms   % of one core   × floor',
    );
    for (const result of results.filter((entry) => entry.speed === speed)) {
      const percent = percentOfOneCore(result);
      const ratio = floorPercent > 0 ? (percent / floorPercent).toFixed(1) : 'n/a';
      console.log(
        `  ${(labels[result.kind] ?? result.kind).padEnd(38)} ${String(result.samples).padStart(7)} ${result.selfMs.toFixed(0).padStart(9)} ${result.childrenMs.toFixed(0).padStart(12)} ${`${percent.toFixed(3)}%`.padStart(15)} ${ratio.padStart(9)}`,
      );
    }
    const collector = results.find((result) => result.kind === 'proc' && result.speed === speed);
    if (collector) {
      const percent = percentOfOneCore(collector);
      const verdict = percent < targets[speed] ? 'met' : 'MISSED';
      console.log(`  target for the default collector: under ${targets[speed]}% of one core: ${verdict}\n`);
    }
  }

  const names = Object.keys(readerResults[0]?.costs ?? {});
  console.log(
    'CPU ms per call of each reader (own + spawned processes), mean of 3 calls a second apart, each including one timer wake (first row):',
  );
  console.log(
    `  ${'reader'.padEnd(16)}${readerResults.map((result) => result.source.padStart(20)).join('')}`,
  );
  for (const name of names) {
    const cells = readerResults.map((result) => (result.costs[name] ?? 0).toFixed(2).padStart(20)).join('');
    console.log(`  ${name.padEnd(16)}${cells}`);
  }
  console.log(
    `\nGPU probes run every ${intervals.gpuMs / 1000} s (every ${(intervals.gpuMs * 10) / 1000} s once none was found), so a window may hold none: its per-call cost is in the table above.`,
  );
}

await main();
