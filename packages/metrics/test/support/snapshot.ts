import type { MetricsSnapshot } from '../../src/snapshot-types.js';

const GiB = 1024 ** 3;

/** A complete snapshot with round numbers, for formatting and tool tests. */
export function makeSnapshot(overrides: Partial<MetricsSnapshot> = {}): MetricsSnapshot {
  return {
    time: 1_700_000_010_000,
    platform: 'linux',
    uptimeSeconds: 7200,
    cpu: {
      usagePercent: 12.4,
      perCorePercent: [10, 14.8],
      loadAverage: { one: 0.42, five: 0.3, fifteen: 0.25 },
      frequencyMhz: 2300,
      cores: 2,
      model: 'Test CPU',
    },
    memory: {
      totalBytes: 23.4 * GiB,
      usedBytes: 5.1 * GiB,
      availableBytes: 18.3 * GiB,
      usedPercent: (5.1 / 23.4) * 100,
      swapTotalBytes: 0,
      swapUsedBytes: 0,
      swapUsedPercent: null,
    },
    disks: [
      {
        mount: '/',
        filesystem: '/dev/vda',
        type: 'ext4',
        totalBytes: 100 * GiB,
        usedBytes: 22 * GiB,
        availableBytes: 78 * GiB,
        usedPercent: 22,
        readBytesPerSecond: 1_200_000,
        writeBytesPerSecond: 40_000,
      },
    ],
    diskIo: { readBytesPerSecond: 1_200_000, writeBytesPerSecond: 40_000 },
    network: {
      rxBytesPerSecond: 1_200_000,
      txBytesPerSecond: 40_000,
      interfaces: [{ name: 'eth0', rxBytesPerSecond: 1_200_000, txBytesPerSecond: 40_000 }],
    },
    temperatures: null,
    battery: null,
    gpus: null,
    processes: {
      sampledAt: 1_700_000_006_000,
      total: 120,
      byCpu: [
        { pid: 42, name: 'ollama', cpuPercent: 180.2, memoryBytes: 4 * GiB },
        { pid: 7, name: 'node', cpuPercent: 3.1, memoryBytes: 0.2 * GiB },
      ],
      byMemory: [
        { pid: 42, name: 'ollama', cpuPercent: 180.2, memoryBytes: 4 * GiB },
        { pid: 7, name: 'node', cpuPercent: 3.1, memoryBytes: 0.2 * GiB },
      ],
    },
    ...overrides,
  };
}
