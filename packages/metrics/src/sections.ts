import { busyPercent, ratePerSecond, sumKnown } from './rates.js';
import type {
  CpuMetrics,
  DiskMetrics,
  MemoryMetrics,
  NetworkMetrics,
  TemperatureMetrics,
} from './snapshot-types.js';
import type {
  CpuReading,
  DiskDeviceReading,
  FileSystemReading,
  MemoryReading,
  NetworkInterfaceReading,
  TemperatureReading,
} from './source-types.js';

/** A reading and when it was taken. */
export interface Timed<T> {
  time: number;
  value: T;
}

/** CPU use from two readings; `null` percentages when there is no earlier one. */
export function cpuSection(
  previous: CpuReading | undefined,
  current: CpuReading | null,
  info: { cores: number; model: string | null },
  loadAverage: [number, number, number] | null,
  frequencyMhz: number | null,
): CpuMetrics {
  const sameCores =
    previous !== undefined && current !== null && previous.cores.length === current.cores.length;
  return {
    usagePercent: current && previous ? busyPercent(previous.total, current.total) : null,
    perCorePercent:
      current && sameCores
        ? current.cores.map((core, index) => busyPercent(previous.cores[index], core))
        : null,
    loadAverage: loadAverage ? { one: loadAverage[0], five: loadAverage[1], fifteen: loadAverage[2] } : null,
    frequencyMhz,
    cores: current?.cores.length || info.cores,
    model: info.model,
  };
}

/** Memory in use as total minus available. */
export function memorySection(reading: MemoryReading | null): MemoryMetrics | null {
  if (!reading || !(reading.totalBytes > 0)) return null;
  const usedBytes = Math.max(0, reading.totalBytes - reading.availableBytes);
  const swapUsedBytes = Math.max(0, reading.swapTotalBytes - reading.swapFreeBytes);
  return {
    totalBytes: reading.totalBytes,
    usedBytes,
    availableBytes: reading.availableBytes,
    usedPercent: (usedBytes / reading.totalBytes) * 100,
    swapTotalBytes: reading.swapTotalBytes,
    swapUsedBytes,
    swapUsedPercent: reading.swapTotalBytes > 0 ? (swapUsedBytes / reading.swapTotalBytes) * 100 : null,
  };
}

const loopback = /^(lo\d*|Loopback.*)$/;

/** Per-interface and total network rates; loopback traffic is left out. */
export function networkSection(
  previous: Timed<NetworkInterfaceReading[]> | undefined,
  current: Timed<NetworkInterfaceReading[] | null>,
): NetworkMetrics | null {
  if (!current.value) return null;
  const before = new Map(previous?.value.map((entry) => [entry.name, entry]));
  const elapsed = previous ? current.time - previous.time : 0;
  const interfaces = current.value
    .filter((entry) => !loopback.test(entry.name))
    .map((entry) => ({
      name: entry.name,
      rxBytesPerSecond: ratePerSecond(before.get(entry.name)?.rxBytes, entry.rxBytes, elapsed),
      txBytesPerSecond: ratePerSecond(before.get(entry.name)?.txBytes, entry.txBytes, elapsed),
    }));
  return {
    rxBytesPerSecond: sumKnown(interfaces.map((entry) => entry.rxBytesPerSecond)),
    txBytesPerSecond: sumKnown(interfaces.map((entry) => entry.txBytesPerSecond)),
    interfaces,
  };
}

/** Read and write rates per device, keyed by device name. */
export function diskRates(
  previous: Timed<DiskDeviceReading[]> | undefined,
  current: Timed<DiskDeviceReading[] | null>,
): Map<string, { read: number | null; write: number | null; whole: boolean }> {
  const rates = new Map<string, { read: number | null; write: number | null; whole: boolean }>();
  if (!current.value) return rates;
  const before = new Map(previous?.value.map((entry) => [entry.device, entry]));
  const elapsed = previous ? current.time - previous.time : 0;
  for (const entry of current.value) {
    const earlier = before.get(entry.device);
    rates.set(entry.device, {
      read: ratePerSecond(earlier?.readBytes, entry.readBytes, elapsed),
      write: ratePerSecond(earlier?.writeBytes, entry.writeBytes, elapsed),
      whole: entry.whole,
    });
  }
  return rates;
}

/** Mounted disks with their usage and, where the device is known, their I/O rates. */
export function disksSection(
  fileSystems: FileSystemReading[] | null,
  rates: ReturnType<typeof diskRates>,
): DiskMetrics[] | null {
  if (!fileSystems) return null;
  return fileSystems.map((fs) => {
    const rate = fs.device === null ? undefined : rates.get(fs.device);
    const usedAndAvailable = fs.usedBytes + fs.availableBytes;
    return {
      mount: fs.mount,
      filesystem: fs.filesystem,
      type: fs.type,
      totalBytes: fs.totalBytes,
      usedBytes: fs.usedBytes,
      availableBytes: fs.availableBytes,
      usedPercent: usedAndAvailable > 0 ? (fs.usedBytes / usedAndAvailable) * 100 : 0,
      readBytesPerSecond: rate?.read ?? null,
      writeBytesPerSecond: rate?.write ?? null,
    };
  });
}

/** The hottest CPU sensor and the hottest of all; `null` without sensors. */
export function temperatureSection(readings: TemperatureReading[] | null): TemperatureMetrics | null {
  if (!readings || readings.length === 0) return null;
  const cpu = readings.filter((reading) => reading.cpu).map((reading) => reading.celsius);
  return {
    cpuCelsius: cpu.length > 0 ? Math.max(...cpu) : null,
    maxCelsius: Math.max(...readings.map((reading) => reading.celsius)),
    sensors: readings.map((reading) => ({ label: reading.label, celsius: reading.celsius })),
  };
}
