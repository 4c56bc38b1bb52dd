import {
  createMetricsCollector,
  type MetricsCollector,
  type MetricsSource,
  type ProcessReading,
} from '@macstats/metrics';

const GIB = 1024 ** 3;
const MIB = 1024 ** 2;

/** What the scripted machine does each second: the same every run, so pages and pictures repeat. */
export const SCRIPTED_MACHINE = {
  /** Network in and out, and disk read and write: mean bytes per second (busy enough for MB/s axes), each ±20% in a wave. */
  networkRxBytesPerSecond: 48 * MIB,
  networkTxBytesPerSecond: 6 * MIB,
  diskReadBytesPerSecond: 21 * MIB,
  diskWriteBytesPerSecond: 9 * MIB,
  cores: 8,
} as const;

/**
 * A collector on a machine that does not exist: a {@link MetricsSource} whose counters move by
 * the same amounts each second, and a clock that moves only when {@link ScriptedMetrics.advance}
 * says, so a history of any length is there at once and every figure is known in advance.
 */
export interface ScriptedMetrics {
  collector: MetricsCollector;
  /** The collector's clock (ms since the epoch). */
  now(): number;
  /** Takes `seconds` samples, one a second, moving the clock. */
  advance(seconds: number): Promise<void>;
}

/** Starts at `start` (ms since the epoch); the collector is not started: call `advance`. */
export function createScriptedMetrics(start = Date.UTC(2026, 10, 24, 9, 30)): ScriptedMetrics {
  let now = start;
  let second = 0;
  // CPU busy share wanders between 20 and 70% in a slow wave; its counters add up each second.
  let busy = 0;
  let total = 0;
  // Cumulative byte counters, as a kernel keeps them.
  const bytes = { rx: 0, tx: 0, read: 0, write: 0 };
  const wave = (mean: number, period: number) => Math.round(mean * (1 + 0.2 * Math.sin(second / period)));
  const cpuPercent = () => 45 + 25 * Math.sin(second / 23);
  const processes = (): ProcessReading[] =>
    [
      ['ollama', 2400],
      ['chromium', 850],
      ['node', 310],
      ['postgres', 120],
      ['sshd', 4],
    ].map(([name, share], index) => ({
      pid: 1200 + index * 37,
      name: String(name),
      cpuTimeMs: (Number(share) * second) / 10,
      cpuPercent: null,
      memoryBytes: (index + 1) * 180 * MIB,
    }));
  const source: MetricsSource = {
    name: 'scripted',
    cpu: () => ({
      total: { busy, total },
      cores: Array.from({ length: SCRIPTED_MACHINE.cores }, () => ({ busy: busy / 8, total: total / 8 })),
    }),
    loadAverage: () => [1.42, 1.18, 0.97],
    memory: () => ({
      totalBytes: 16 * GIB,
      availableBytes: (6.4 - Math.sin(second / 40)) * GIB,
      swapTotalBytes: 2 * GIB,
      swapFreeBytes: 1.8 * GIB,
    }),
    uptimeSeconds: () => 3 * 86_400 + 4 * 3600 + second,
    network: () => [
      {
        name: 'en0',
        rxBytes: bytes.rx,
        txBytes: bytes.tx,
      },
    ],
    diskIo: () => [
      {
        device: 'disk0',
        readBytes: bytes.read,
        writeBytes: bytes.write,
        whole: true,
      },
    ],
    fileSystems: () => [
      {
        mount: '/',
        filesystem: '/dev/disk0s1',
        type: 'apfs',
        totalBytes: 500 * GIB,
        usedBytes: 312 * GIB,
        availableBytes: 188 * GIB,
        device: 'disk0',
      },
    ],
    processes,
    temperatures: () => null,
    battery: () => null,
    cpuFrequencyMhz: () => 3200,
    gpus: () => null,
    cpuInfo: () => ({ cores: SCRIPTED_MACHINE.cores, model: 'Scripted CPU' }),
  };
  const collector = createMetricsCollector({ source, clock: () => now, topProcesses: 5 });
  return {
    collector,
    now: () => now,
    async advance(seconds) {
      for (let index = 0; index < seconds; index += 1) {
        second += 1;
        now += 1000;
        total += 1000;
        busy += cpuPercent() * 10;
        bytes.rx += wave(SCRIPTED_MACHINE.networkRxBytesPerSecond, 13);
        bytes.tx += wave(SCRIPTED_MACHINE.networkTxBytesPerSecond, 7);
        bytes.read += wave(SCRIPTED_MACHINE.diskReadBytesPerSecond, 17);
        bytes.write += wave(SCRIPTED_MACHINE.diskWriteBytesPerSecond, 29);
        await collector.sample();
      }
    },
  };
}
