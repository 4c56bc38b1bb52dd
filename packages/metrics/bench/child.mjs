// @ts-check
// One bench configuration in its own plain-Node process (no TypeScript loader, whose thread would
// add its own CPU), running the built package:
//   node --expose-gc child.mjs run <floor|proc|systeminformation> <fast|slow> <seconds>
//   node --expose-gc child.mjs readers <proc|systeminformation>
// Prints one JSON line.
import { setTimeout as sleep } from 'node:timers/promises';
import {
  createMetricsCollector,
  createProcSource,
  createSystemInformationSource,
  METRICS_DEFAULTS,
} from '../dist/index.js';
import { cpuTimeSince, readCpuTime } from './cpu-time.mjs';
import { startFloorLoop } from './floor.mjs';

const [mode, kind, speedArgument, secondsArgument] = process.argv.slice(2);
/** Start-up settles in this time: module loading, the process-list baseline, V8's memory reducer (~16 s in). */
const warmupMs = 20_000;
const readerCalls = 3;

/** @param {string | undefined} name */
function sourceFor(name) {
  if (name === 'proc') return createProcSource();
  if (name === 'systeminformation') return createSystemInformationSource();
  throw new Error(`unknown source ${name}`);
}

async function runConfiguration() {
  const speed = speedArgument === 'fast' ? 'fast' : 'slow';
  const seconds = Number(secondsArgument);
  const { intervals } = METRICS_DEFAULTS;
  const periodMs = speed === 'fast' ? intervals.fastMs : intervals.slowMs;
  let samples = 0;
  /** @type {() => unknown} */
  let stop;
  if (kind === 'floor') {
    stop = startFloorLoop(periodMs, intervals.processesMs, intervals.fileSystemsMs);
  } else {
    const collector = createMetricsCollector({ source: sourceFor(kind), speed, keepAlive: true });
    collector.on('sample', () => {
      samples += 1;
    });
    collector.start();
    stop = () => collector.stop();
  }
  // Collect start-up garbage before measuring, in every configuration alike: a one-off, not a rate.
  await sleep(warmupMs);
  /** @type {{ gc?: () => void }} */ (globalThis).gc?.();
  const samplesBefore = samples;
  const before = readCpuTime();
  await sleep(seconds * 1000);
  const spent = cpuTimeSince(before);
  await stop();
  const measured = kind === 'floor' ? Math.floor((seconds * 1000) / periodMs) : samples - samplesBefore;
  process.stdout.write(`${JSON.stringify({ kind, speed, seconds, samples: measured, ...spent })}\n`);
}

async function measureReaders() {
  const source = sourceFor(kind);
  const readers = /** @type {const} */ ([
    'cpu',
    'memory',
    'loadAverage',
    'network',
    'diskIo',
    'fileSystems',
    'processes',
    'temperatures',
    'battery',
    'cpuFrequencyMhz',
    'gpus',
  ]);
  /** @type {Record<string, number>} */
  const costs = {};
  // First calls load modules and take systeminformation's own baselines: not what a sample costs.
  for (const reader of readers) await source[reader]();
  /** @type {{ gc?: () => void }} */ (globalThis).gc?.();
  // Calls spaced past systeminformation's caches, which answer repeats within a second for free;
  // three of each, because children's CPU time is counted in 10 ms ticks.
  /** @param {() => unknown} call */
  const measure = async (call) => {
    const before = readCpuTime();
    for (let index = 0; index < readerCalls; index++) {
      await sleep(1100);
      await call();
    }
    const spent = cpuTimeSince(before);
    return (spent.selfMs + spent.childrenMs) / readerCalls;
  };
  costs['(timer wake only)'] = await measure(() => undefined);
  for (const reader of readers) costs[reader] = await measure(() => source[reader]());
  process.stdout.write(`${JSON.stringify({ source: kind, costs })}\n`);
}

await (mode === 'readers' ? measureReaders() : runConfiguration());
process.exit(0);
