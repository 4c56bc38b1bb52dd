import { existsSync, readdirSync } from 'node:fs';
import { cpus, totalmem } from 'node:os';
import { beforeAll, describe, expect, it } from 'vitest';
import {
  collectSnapshot,
  createMetricsCollector,
  createProcSource,
  formatSummaryLine,
} from '../src/index.js';
import type { MetricsSnapshot } from '../src/snapshot-types.js';

const hasSensors = existsSync('/sys/class/hwmon') && readdirSync('/sys/class/hwmon').length > 0;
const hasBattery =
  existsSync('/sys/class/power_supply') &&
  readdirSync('/sys/class/power_supply').some((name) => name.startsWith('BAT'));

describe.runIf(process.platform === 'linux')('a snapshot of this machine', () => {
  let snapshot: MetricsSnapshot;

  beforeAll(async () => {
    snapshot = await collectSnapshot({ topProcesses: 10_000, windowMs: 300 });
  });

  it('names the platform it measured', () => {
    expect(snapshot.platform).toBe('linux');
  });

  it('has measured CPU use, in range, for the whole machine and each core', () => {
    expect(snapshot.cpu.cores).toBe(cpus().length);
    expect(snapshot.cpu.usagePercent).toBeGreaterThanOrEqual(0);
    expect(snapshot.cpu.usagePercent).toBeLessThanOrEqual(100);
    expect(snapshot.cpu.perCorePercent).toHaveLength(cpus().length);
    expect(snapshot.cpu.loadAverage?.one).toBeGreaterThanOrEqual(0);
  });

  it('has memory that matches what Node reports as the total', () => {
    expect(snapshot.memory?.totalBytes).toBe(totalmem());
    expect(snapshot.memory?.usedBytes).toBeGreaterThan(0);
    expect(snapshot.memory?.usedBytes).toBeLessThan(totalmem());
  });

  it('lists the root disk with usage and an I/O rate', () => {
    const root = snapshot.disks?.find((disk) => disk.mount === '/');
    expect(root?.totalBytes).toBeGreaterThan(0);
    expect(root?.usedPercent).toBeGreaterThan(0);
    expect(root?.usedPercent).toBeLessThan(100);
    expect(snapshot.diskIo?.readBytesPerSecond).toBeGreaterThanOrEqual(0);
  });

  it('has network rates for the interfaces, loopback left out', () => {
    expect(snapshot.network?.rxBytesPerSecond).toBeGreaterThanOrEqual(0);
    expect(snapshot.network?.interfaces.some((entry) => entry.name === 'lo')).toBe(false);
  });

  it('lists this test process in the process list with its memory', () => {
    const self = snapshot.processes?.byMemory.find((entry) => entry.pid === process.pid);
    expect(self?.memoryBytes).toBeGreaterThan(0);
    expect(self?.cpuPercent).toBeGreaterThanOrEqual(0);
    expect(snapshot.processes?.total).toBeGreaterThan(1);
  });

  it.skipIf(hasSensors)('reports null, not zero, for the temperature sensors this machine lacks', () => {
    expect(snapshot.temperatures).toBeNull();
  });

  it.skipIf(hasBattery)('reports null for the battery this machine lacks', () => {
    expect(snapshot.battery).toBeNull();
  });

  it('reports null for a GPU it did not find, and well-formed entries for one it did', () => {
    for (const gpu of snapshot.gpus ?? []) expect(typeof gpu.model).toBe('string');
    if (snapshot.gpus !== null) expect(snapshot.gpus.length).toBeGreaterThan(0);
  });

  it('survives a JSON round trip unchanged, so apps can send it as is', () => {
    expect(JSON.parse(JSON.stringify(snapshot))).toEqual(snapshot);
  });

  it('makes a summary line with every part this machine has', () => {
    expect(formatSummaryLine(snapshot)).toMatch(
      /^CPU \d+% · load [\d.]+ · mem [\d.]+\/[\d.]+ GiB · disk \S+ \d+% · net ↓/,
    );
  });
});

describe.runIf(process.platform === 'linux')('a real collector on this machine', () => {
  it('delivers samples on its own timer until stopped', async () => {
    const collector = createMetricsCollector({
      source: createProcSource(),
      intervals: { fastMs: 20, slowMs: 20, warmupMs: 20 },
    });
    const times: number[] = [];
    const three = new Promise<void>((resolve) => {
      collector.on('sample', (sample) => {
        times.push(sample.time);
        if (times.length === 3) resolve();
      });
    });
    collector.start();
    await three;
    await collector.stop();
    const count = times.length;
    expect(collector.latest()?.cpu.usagePercent).not.toBeNull();
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(times.length).toBe(count);
  });
});
