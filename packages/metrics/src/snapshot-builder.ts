import type { Logger } from '@macstats/core';
import type { CollectorIntervals } from './defaults.js';
import { processesSection } from './processes-section.js';
import { createSafeReader } from './read-safely.js';
import {
  cpuSection,
  diskRates,
  disksSection,
  memorySection,
  networkSection,
  type Timed,
  temperatureSection,
} from './sections.js';
import type { BatteryMetrics, GpuMetrics, MetricsSnapshot, ProcessesMetrics } from './snapshot-types.js';
import type {
  CpuReading,
  DiskDeviceReading,
  FileSystemReading,
  MetricsSource,
  NetworkInterfaceReading,
  ProcessReading,
  TemperatureReading,
} from './source-types.js';

/** What a snapshot builder needs. */
export interface SnapshotBuilderOptions {
  source: MetricsSource;
  intervals: CollectorIntervals;
  topProcesses: number;
  logger: Logger;
  platform: string;
}

/** Takes samples: reads the cheap counters every time and the expensive parts when they are due. */
export interface SnapshotBuilder {
  /** Reads the machine at `now` (ms) and returns the snapshot, rates computed against the previous sample. */
  sample(now: number): Promise<MetricsSnapshot>;
}

function due(lastTime: number | undefined, now: number, interval: number): boolean {
  // A clock that went backwards (a wall-clock change) also makes every part due again.
  return lastTime === undefined || now - lastTime >= interval || now < lastTime;
}

/** Creates the stateful sampler behind {@link createMetricsCollector} and {@link collectSnapshot}. */
export function createSnapshotBuilder(options: SnapshotBuilderOptions): SnapshotBuilder {
  const { source, intervals, topProcesses, platform } = options;
  const read = createSafeReader(options.logger);
  let info: { cores: number; model: string | null } | undefined;
  let cpu: CpuReading | undefined;
  let network: Timed<NetworkInterfaceReading[]> | undefined;
  let disks: Timed<DiskDeviceReading[]> | undefined;
  let fileSystems: Timed<FileSystemReading[] | null> | undefined;
  let processReading: Timed<ProcessReading[]> | undefined;
  let processes: { time: number; metrics: ProcessesMetrics | null; awaitingSecond: boolean } | undefined;
  let sensors:
    | {
        time: number;
        temperatures: TemperatureReading[] | null;
        battery: BatteryMetrics | null;
        frequencyMhz: number | null;
      }
    | undefined;
  let gpus: { time: number; next: number; value: GpuMetrics[] | null } | undefined;

  async function readSlowParts(now: number): Promise<void> {
    const work: Promise<void>[] = [];
    if (due(fileSystems?.time, now, intervals.fileSystemsMs)) {
      work.push(
        read('fileSystems', () => source.fileSystems()).then((value) => {
          // Disk usage moves slowly: after a failed read, the last good one is still the best answer.
          fileSystems = { time: now, value: value ?? fileSystems?.value ?? null };
        }),
      );
    }
    // Process CPU needs two readings: the first is a baseline and the second follows at the next sample.
    if (processes?.awaitingSecond || due(processes?.time, now, intervals.processesMs)) {
      work.push(
        read('processes', () => source.processes()).then((value) => {
          if (!value) {
            processes = { time: now, metrics: processes?.metrics ?? null, awaitingSecond: false };
            return;
          }
          const current = { time: now, value };
          // A reading from long ago (the collector was stopped) is no baseline for a rate.
          const fresh = processReading && now - processReading.time <= intervals.processesMs * 3;
          processes = fresh
            ? {
                time: now,
                metrics: processesSection(processReading, current, topProcesses),
                awaitingSecond: false,
              }
            : { time: now, metrics: null, awaitingSecond: true };
          processReading = current;
        }),
      );
    }
    if (due(sensors?.time, now, intervals.sensorsMs)) {
      work.push(
        Promise.all([
          read('temperatures', () => source.temperatures()),
          read('battery', () => source.battery()),
          read('cpuFrequencyMhz', () => source.cpuFrequencyMhz()),
        ]).then(([temperatures, battery, frequencyMhz]) => {
          sensors = { time: now, temperatures, battery, frequencyMhz };
        }),
      );
    }
    if (gpus === undefined || now >= gpus.next || now < gpus.time) {
      work.push(
        read('gpus', () => source.gpus()).then((value) => {
          const found = value && value.length > 0 ? value : null;
          // GPUs are not plugged in at run time: once a probe finds none, probe ten times less often.
          gpus = { time: now, next: now + intervals.gpuMs * (found ? 1 : 10), value: found };
        }),
      );
    }
    await Promise.all(work);
  }

  return {
    async sample(now) {
      info ??= (await read('cpuInfo', () => source.cpuInfo())) ?? { cores: 0, model: null };
      const [cpuReading, loadAverage, memory, uptimeSeconds, networkReading, diskReading] = await Promise.all(
        [
          read('cpu', () => source.cpu()),
          read('loadAverage', () => source.loadAverage()),
          read('memory', () => source.memory()),
          read('uptimeSeconds', () => source.uptimeSeconds()),
          read('network', () => source.network()),
          read('diskIo', () => source.diskIo()),
          readSlowParts(now),
        ],
      );

      const networkNow = { time: now, value: networkReading };
      const disksNow = { time: now, value: diskReading };
      const rates = diskRates(disks, disksNow);
      const wholeRates = [...rates.values()].filter((rate) => rate.whole);
      const sumOf = (pick: (rate: (typeof wholeRates)[number]) => number | null) => {
        const values = wholeRates.map(pick);
        return values.length > 0 && values.every((value) => value !== null)
          ? (values as number[]).reduce((sum, value) => sum + value, 0)
          : null;
      };

      const snapshot: MetricsSnapshot = {
        time: now,
        platform,
        uptimeSeconds,
        cpu: cpuSection(cpu, cpuReading, info, loadAverage, sensors?.frequencyMhz ?? null),
        memory: memorySection(memory),
        disks: disksSection(fileSystems?.value ?? null, rates),
        diskIo: diskReading
          ? { readBytesPerSecond: sumOf((r) => r.read), writeBytesPerSecond: sumOf((r) => r.write) }
          : null,
        network: networkSection(network, networkNow),
        temperatures: temperatureSection(sensors?.temperatures ?? null),
        battery: sensors?.battery ?? null,
        gpus: gpus?.value ?? null,
        processes: processes?.metrics ?? null,
      };

      if (cpuReading) cpu = cpuReading;
      if (networkReading) network = { time: now, value: networkReading };
      if (diskReading) disks = { time: now, value: diskReading };
      return snapshot;
    },
  };
}
