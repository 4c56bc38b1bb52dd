import { describe, expect, it } from 'vitest';
import { createFakeSource, createManualClock, createRecordingLogger } from '../test/support/fake-source.js';
import { METRICS_DEFAULTS } from './defaults.js';
import { createSnapshotBuilder } from './snapshot-builder.js';
import type { MetricsSource } from './source-types.js';

function builderFor(source: MetricsSource, logger = createRecordingLogger().logger) {
  return createSnapshotBuilder({
    source,
    intervals: METRICS_DEFAULTS.intervals,
    topProcesses: 2,
    logger,
    platform: 'linux',
  });
}

describe('createSnapshotBuilder: rates from injected readings', () => {
  it('reports null rates on the first sample, never a zero', async () => {
    const { source } = createFakeSource();
    const first = await builderFor(source).sample(1000);
    expect(first.cpu.usagePercent).toBeNull();
    expect(first.cpu.perCorePercent).toBeNull();
    expect(first.network?.rxBytesPerSecond).toBeNull();
    expect(first.diskIo?.readBytesPerSecond).toBeNull();
    expect(first.disks?.[0]?.readBytesPerSecond).toBeNull();
  });

  it('computes CPU use from the tick difference between two samples', async () => {
    const fake = createFakeSource();
    const builder = builderFor(fake.source);
    fake.readings.cpu = { total: { busy: 100, total: 1000 }, cores: [{ busy: 100, total: 1000 }] };
    await builder.sample(1000);
    fake.readings.cpu = { total: { busy: 400, total: 2000 }, cores: [{ busy: 400, total: 2000 }] };
    const second = await builder.sample(3000);
    expect(second.cpu.usagePercent).toBe(30);
    expect(second.cpu.perCorePercent).toEqual([30]);
  });

  it('computes network rates per second over the measured gap and leaves loopback out', async () => {
    const fake = createFakeSource();
    const builder = builderFor(fake.source);
    await builder.sample(10_000);
    fake.readings.network = [
      { name: 'lo', rxBytes: 9_000_000, txBytes: 9_000_000 },
      { name: 'eth0', rxBytes: 2_500_000, txBytes: 100_000 },
    ];
    const second = await builder.sample(12_500);
    expect(second.network).toEqual({
      rxBytesPerSecond: 1_000_000,
      txBytesPerSecond: 40_000,
      interfaces: [{ name: 'eth0', rxBytesPerSecond: 1_000_000, txBytesPerSecond: 40_000 }],
    });
  });

  it('reports null rather than a spike when a counter resets', async () => {
    const fake = createFakeSource({ network: [{ name: 'eth0', rxBytes: 5_000_000, txBytes: 5_000_000 }] });
    const builder = builderFor(fake.source);
    await builder.sample(0);
    fake.readings.network = [{ name: 'eth0', rxBytes: 100, txBytes: 100 }];
    const second = await builder.sample(2000);
    expect(second.network?.interfaces[0]?.rxBytesPerSecond).toBeNull();
  });

  it('gives each mounted disk the I/O rate of its device and the machine the sum of whole disks', async () => {
    const fake = createFakeSource({
      diskIo: [
        { device: 'vda', readBytes: 0, writeBytes: 0, whole: true },
        { device: 'vda1', readBytes: 0, writeBytes: 0, whole: false },
        { device: 'vdb', readBytes: 0, writeBytes: 0, whole: true },
      ],
    });
    fake.readings.fileSystems = [
      {
        mount: '/',
        filesystem: '/dev/vda1',
        type: 'ext4',
        totalBytes: 10,
        usedBytes: 3,
        availableBytes: 7,
        device: 'vda1',
      },
    ];
    const builder = builderFor(fake.source);
    await builder.sample(0);
    fake.readings.diskIo = [
      { device: 'vda', readBytes: 4000, writeBytes: 2000, whole: true },
      { device: 'vda1', readBytes: 4000, writeBytes: 2000, whole: false },
      { device: 'vdb', readBytes: 2000, writeBytes: 0, whole: true },
    ];
    const second = await builder.sample(2000);
    expect(second.disks?.[0]).toMatchObject({
      mount: '/',
      usedPercent: 30,
      readBytesPerSecond: 2000,
      writeBytesPerSecond: 1000,
    });
    expect(second.diskIo).toEqual({ readBytesPerSecond: 3000, writeBytesPerSecond: 1000 });
  });
});

describe('createSnapshotBuilder: slow parts', () => {
  it('reads the process list twice at the start, then at its own slower rate', async () => {
    const fake = createFakeSource();
    const builder = builderFor(fake.source);
    const clock = createManualClock(0);
    for (let sample = 0; sample < 8; sample++) {
      await builder.sample(clock.now());
      clock.advance(5000);
    }
    // t=0 baseline, t=5 s second reading, then every 15 s: t=20 s, t=35 s.
    expect(fake.calls['processes']).toBe(4);
    expect(fake.calls['cpu']).toBe(8);
  });

  it('computes process CPU from the CPU time each process used between two readings', async () => {
    const fake = createFakeSource({
      processes: [
        { pid: 1, name: 'idle', cpuTimeMs: 1000, cpuPercent: null, memoryBytes: 10 },
        { pid: 2, name: 'busy', cpuTimeMs: 1000, cpuPercent: null, memoryBytes: 5 },
      ],
    });
    const builder = builderFor(fake.source);
    const first = await builder.sample(0);
    expect(first.processes).toBeNull();
    fake.readings.processes = [
      { pid: 1, name: 'idle', cpuTimeMs: 1000, cpuPercent: null, memoryBytes: 10 },
      { pid: 2, name: 'busy', cpuTimeMs: 4000, cpuPercent: null, memoryBytes: 5 },
      { pid: 3, name: 'new', cpuTimeMs: 500, cpuPercent: null, memoryBytes: 1 },
    ];
    const second = await builder.sample(2000);
    expect(second.processes).toEqual({
      sampledAt: 2000,
      total: 3,
      byCpu: [
        { pid: 2, name: 'busy', cpuPercent: 150, memoryBytes: 5 },
        { pid: 1, name: 'idle', cpuPercent: 0, memoryBytes: 10 },
      ],
      byMemory: [
        { pid: 1, name: 'idle', cpuPercent: 0, memoryBytes: 10 },
        { pid: 2, name: 'busy', cpuPercent: 150, memoryBytes: 5 },
      ],
    });
  });

  it('reads disk usage once a minute and keeps the last good reading through a failure', async () => {
    const fake = createFakeSource();
    const builder = builderFor(fake.source);
    await builder.sample(0);
    fake.failing.add('fileSystems');
    const later = await builder.sample(61_000);
    expect(fake.calls['fileSystems']).toBe(2);
    expect(later.disks?.[0]?.mount).toBe('/');
  });

  it('probes for a GPU ten times less often once a probe found none', async () => {
    const fake = createFakeSource();
    const builder = builderFor(fake.source);
    for (const time of [0, 60_000, 120_000, 599_000]) await builder.sample(time);
    expect(fake.calls['gpus']).toBe(1);
    await builder.sample(600_000);
    expect(fake.calls['gpus']).toBe(2);
  });
});

describe('createSnapshotBuilder: missing readings', () => {
  it('reports null sections when a reader throws, logs once and keeps sampling the rest', async () => {
    const fake = createFakeSource();
    const { logger, entries } = createRecordingLogger();
    const builder = builderFor(fake.source, logger);
    fake.failing.add('memory');
    const first = await builder.sample(0);
    const second = await builder.sample(5000);
    expect(first.memory).toBeNull();
    expect(second.memory).toBeNull();
    expect(second.cpu.loadAverage).toEqual({ one: 0.5, five: 0.4, fifteen: 0.3 });
    expect(entries.filter((entry) => entry.level === 'warn')).toMatchObject([
      { details: { reader: 'memory' } },
    ]);
  });

  it('reports null temperatures, battery and GPU when the machine has none', async () => {
    const snapshot = await builderFor(createFakeSource().source).sample(0);
    expect(snapshot.temperatures).toBeNull();
    expect(snapshot.battery).toBeNull();
    expect(snapshot.gpus).toBeNull();
    expect(snapshot.cpu.frequencyMhz).toBeNull();
  });

  it('reports null swap use when there is no swap, and real zeros as zeros', async () => {
    const snapshot = await builderFor(createFakeSource().source).sample(0);
    expect(snapshot.memory).toMatchObject({
      swapTotalBytes: 0,
      swapUsedBytes: 0,
      swapUsedPercent: null,
      usedPercent: 25,
    });
  });

  it('picks the hottest CPU sensor apart from the hottest of all', async () => {
    const fake = createFakeSource({
      temperatures: [
        { label: 'coretemp Package id 0', celsius: 61, cpu: true },
        { label: 'nvme Composite', celsius: 70, cpu: false },
      ],
    });
    const snapshot = await builderFor(fake.source).sample(0);
    expect(snapshot.temperatures).toMatchObject({ cpuCelsius: 61, maxCelsius: 70 });
  });
});
