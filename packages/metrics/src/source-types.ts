/**
 * Raw readings a {@link MetricsSource} returns. Counters are cumulative (bytes or CPU time
 * since boot); the collector turns them into rates from the difference between two readings,
 * so a source never has to keep state and tests can inject any sequence of readings.
 */

/** Cumulative CPU time of one core (or of all cores together), in any consistent unit. */
export interface CpuTimesReading {
  /** Time spent busy (user, nice, system, irq, softirq, steal). */
  busy: number;
  /** Busy plus idle (idle and I/O wait). */
  total: number;
}

/** CPU counters: the whole machine and each core. */
export interface CpuReading {
  total: CpuTimesReading;
  cores: CpuTimesReading[];
}

/** Memory and swap in bytes. */
export interface MemoryReading {
  totalBytes: number;
  /** What new programs could use without swapping (Linux `MemAvailable`). */
  availableBytes: number;
  swapTotalBytes: number;
  swapFreeBytes: number;
}

/** Cumulative bytes through one network interface. */
export interface NetworkInterfaceReading {
  name: string;
  rxBytes: number;
  txBytes: number;
}

/** Cumulative bytes read and written by one block device. */
export interface DiskDeviceReading {
  /** Device name as the mounted file systems name it (`vda`, `nvme0n1p2`), or `*` for a machine-wide total. */
  device: string;
  readBytes: number;
  writeBytes: number;
  /** True for whole disks, false for partitions: machine totals add up whole disks only. */
  whole: boolean;
}

/** Usage of one mounted file system. */
export interface FileSystemReading {
  mount: string;
  /** What is mounted: `/dev/vda`, `overlay`. */
  filesystem: string;
  type: string;
  totalBytes: number;
  usedBytes: number;
  availableBytes: number;
  /** The block device whose I/O counters belong to this mount (a {@link DiskDeviceReading.device}), when known. */
  device: string | null;
}

/** One process at the moment of reading. */
export interface ProcessReading {
  pid: number;
  name: string;
  /** Cumulative CPU time in milliseconds; the collector derives a rate from two readings. */
  cpuTimeMs: number | null;
  /** A ready-made CPU percentage of one core, for platforms that report only that. */
  cpuPercent: number | null;
  memoryBytes: number | null;
}

/** One temperature sensor. */
export interface TemperatureReading {
  label: string;
  celsius: number;
  /** True when the sensor measures the CPU package or its cores. */
  cpu: boolean;
}

/** The battery, when there is one. */
export interface BatteryReading {
  percent: number;
  charging: boolean | null;
  acConnected: boolean | null;
  timeRemainingMinutes: number | null;
}

/** One graphics processor. Fields its driver does not report are null. */
export interface GpuReading {
  model: string;
  vendor: string | null;
  utilizationPercent: number | null;
  memoryUsedBytes: number | null;
  memoryTotalBytes: number | null;
  temperatureCelsius: number | null;
}

type Maybe<T> = T | Promise<T>;

/**
 * The functions that read raw counters. Every method may return `null` when the platform does
 * not report that reading, and may throw: the collector logs the failure and reports `null`.
 * Methods may be synchronous or asynchronous.
 */
export interface MetricsSource {
  /** Short name for logs and benchmarks: `proc`, `systeminformation`. */
  readonly name: string;
  cpu(): Maybe<CpuReading | null>;
  /** Load averages over 1, 5 and 15 minutes; `null` where the platform has none (Windows). */
  loadAverage(): Maybe<[number, number, number] | null>;
  memory(): Maybe<MemoryReading | null>;
  uptimeSeconds(): Maybe<number | null>;
  network(): Maybe<NetworkInterfaceReading[] | null>;
  diskIo(): Maybe<DiskDeviceReading[] | null>;
  /** Slow: read every {@link CollectorIntervals.fileSystemsMs}. */
  fileSystems(): Maybe<FileSystemReading[] | null>;
  /** Slow: read every {@link CollectorIntervals.processesMs}. */
  processes(): Maybe<ProcessReading[] | null>;
  /** Read every {@link CollectorIntervals.sensorsMs}; `null` or `[]` when there are no sensors. */
  temperatures(): Maybe<TemperatureReading[] | null>;
  /** Read every {@link CollectorIntervals.sensorsMs}; `null` when there is no battery. */
  battery(): Maybe<BatteryReading | null>;
  /** Current average clock in MHz, read every {@link CollectorIntervals.sensorsMs}; `null` when unknown. */
  cpuFrequencyMhz(): Maybe<number | null>;
  /** Read every {@link CollectorIntervals.gpuMs}; `null` or `[]` when there is none. */
  gpus(): Maybe<GpuReading[] | null>;
  /** Static facts read once: core count and model. */
  cpuInfo(): Maybe<{ cores: number; model: string | null }>;
}
