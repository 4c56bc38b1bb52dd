import { setTimeout as sleep } from 'node:timers/promises';
import {
  createMetricsCollector,
  createProcSource,
  createSystemInformationSource,
  METRICS_DEFAULTS,
} from '../src/index.js';
import type { MetricsSource } from '../src/source-types.js';
import { cpuTimeSince, readCpuTime } from './cpu-time.js';
import { startFloorLoop } from './floor.js';

/**
 * One bench configuration, run in its own process so its CPU time is its own:
 * `child.ts run <floor|proc|systeminformation> <fast|slow> <seconds>` or
 * `child.ts readers <proc|systeminformation>`. Prints one JSON line.
 */
const [mode, kind, speedOrNothing, secondsText] = process.argv.slice(2);
const warmupMs = 3000;
const readerCalls = 3;

function sourceFor(name: string | undefined): MetricsSource {
  if (name === 'proc') return createProcSource();
  if (name === 'systeminformation') return createSystemInformationSource();
  throw new Error(`unknown source ${name}`);
}

async function runConfiguration(): Promise<void> {
  const speed = speedOrNothing === 'fast' ? 'fast' : 'slow';
  const seconds = Number(secondsText);
  const { intervals } = METRICS_DEFAULTS;
  const periodMs = speed === 'fast' ? intervals.fastMs : intervals.slowMs;
  let samples = 0;
  let stop: () => Promise<void> | void;
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
  // Let the start-up reads (module loading, the process-list baseline) finish before measuring.
  await sleep(warmupMs);
  const samplesBefore = samples;
  const before = readCpuTime();
  await sleep(seconds * 1000);
  const spent = cpuTimeSince(before);
  await stop();
  const measured = kind === 'floor' ? Math.floor((seconds * 1000) / periodMs) : samples - samplesBefore;
  process.stdout.write(`${JSON.stringify({ kind, speed, seconds, samples: measured, ...spent })}\n`);
}

async function measureReaders(): Promise<void> {
  const source = sourceFor(kind);
  const readers = [
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
  ] as const;
  const costs: Record<string, number> = {};
  // First calls load modules and take systeminformation's own baselines: not what a sample costs.
  for (const reader of readers) await source[reader]();
  // Calls spaced past systeminformation's caches, which answer repeats within a second for free;
  // three of each, because children's CPU time is counted in 10 ms ticks.
  const measure = async (call: () => unknown) => {
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
