/**
 * What the collector reports. Every field a platform does not report is `null`, never zero:
 * a zero always means a measured zero. Rates are `null` until two readings exist.
 */

/** CPU figures. Percentages are 0–100 of the whole machine (or of one core, per core). */
export interface CpuMetrics {
  /** Busy share of all cores since the previous sample, %; `null` on the first sample. */
  usagePercent: number | null;
  /** Busy share of each core, %; `null` on the first sample (or for a core that went offline). */
  perCorePercent: Array<number | null> | null;
  /** Load averages over 1, 5 and 15 minutes; `null` on Windows. */
  loadAverage: { one: number; five: number; fifteen: number } | null;
  /** Current average clock in MHz; `null` where the platform does not say. */
  frequencyMhz: number | null;
  /** Logical cores. */
  cores: number;
  model: string | null;
}

/** Memory and swap, in bytes. */
export interface MemoryMetrics {
  totalBytes: number;
  /** Total minus available: what programs hold, not counting reclaimable cache. */
  usedBytes: number;
  availableBytes: number;
  usedPercent: number;
  swapTotalBytes: number;
  swapUsedBytes: number;
  /** `null` when there is no swap. */
  swapUsedPercent: number | null;
}

/** One mounted disk: usage (read every `fileSystemsMs`) and I/O rate (every sample). */
export interface DiskMetrics {
  mount: string;
  filesystem: string;
  type: string;
  totalBytes: number;
  usedBytes: number;
  availableBytes: number;
  /** Used share as `df` computes it: used / (used + available), %. */
  usedPercent: number;
  /** `null` on the first sample and where the platform has no per-device counters. */
  readBytesPerSecond: number | null;
  writeBytesPerSecond: number | null;
}

/** Reads and writes of all disks together, bytes per second. */
export interface DiskIoMetrics {
  readBytesPerSecond: number | null;
  writeBytesPerSecond: number | null;
}

/** One network interface (loopback excluded). */
export interface NetworkInterfaceMetrics {
  name: string;
  rxBytesPerSecond: number | null;
  txBytesPerSecond: number | null;
}

/** Network rates, bytes per second; totals add up every interface listed. */
export interface NetworkMetrics {
  rxBytesPerSecond: number | null;
  txBytesPerSecond: number | null;
  interfaces: NetworkInterfaceMetrics[];
}

/** Temperature sensors, °C. */
export interface TemperatureMetrics {
  /** Hottest CPU sensor; `null` when no sensor is known to be the CPU's. */
  cpuCelsius: number | null;
  /** Hottest sensor of any kind. */
  maxCelsius: number;
  sensors: Array<{ label: string; celsius: number }>;
}

/** The battery. */
export interface BatteryMetrics {
  percent: number;
  charging: boolean | null;
  acConnected: boolean | null;
  timeRemainingMinutes: number | null;
}

/** One graphics processor. */
export interface GpuMetrics {
  model: string;
  vendor: string | null;
  utilizationPercent: number | null;
  memoryUsedBytes: number | null;
  memoryTotalBytes: number | null;
  temperatureCelsius: number | null;
}

/** One process in a top list. */
export interface ProcessMetrics {
  pid: number;
  name: string;
  /** Share of one core since the previous process reading, % (above 100 for several cores). */
  cpuPercent: number | null;
  /** Resident memory in bytes. */
  memoryBytes: number | null;
}

/** The busiest processes, read every `processesMs`. */
export interface ProcessesMetrics {
  /** When the process list was read (ms since the epoch). */
  sampledAt: number;
  /** How many processes were running. */
  total: number;
  byCpu: ProcessMetrics[];
  byMemory: ProcessMetrics[];
}

/** One sample of the whole machine. */
export interface MetricsSnapshot {
  /** When the sample was taken, ms since the epoch (from the collector's clock). */
  time: number;
  /** `process.platform` of the machine measured. */
  platform: string;
  uptimeSeconds: number | null;
  cpu: CpuMetrics;
  memory: MemoryMetrics | null;
  /** Mounted local disks; `null` when they could not be read. */
  disks: DiskMetrics[] | null;
  diskIo: DiskIoMetrics | null;
  network: NetworkMetrics | null;
  /** `null` when the machine has no readable temperature sensor. */
  temperatures: TemperatureMetrics | null;
  /** `null` when there is no battery. */
  battery: BatteryMetrics | null;
  /** `null` when no graphics processor was found. */
  gpus: GpuMetrics[] | null;
  /** `null` until two process readings exist (the second follows the first at the next sample). */
  processes: ProcessesMetrics | null;
}
