import type {
  BatteryReading,
  CpuReading,
  DiskDeviceReading,
  FileSystemReading,
  GpuReading,
  MemoryReading,
  MetricsSource,
  NetworkInterfaceReading,
  ProcessReading,
  TemperatureReading,
} from '../../src/source-types.js';

/** The readings a fake source returns; tests change them between samples. */
export interface FakeReadings {
  cpu: CpuReading | null;
  loadAverage: [number, number, number] | null;
  memory: MemoryReading | null;
  uptimeSeconds: number | null;
  network: NetworkInterfaceReading[] | null;
  diskIo: DiskDeviceReading[] | null;
  fileSystems: FileSystemReading[] | null;
  processes: ProcessReading[] | null;
  temperatures: TemperatureReading[] | null;
  battery: BatteryReading | null;
  cpuFrequencyMhz: number | null;
  gpus: GpuReading[] | null;
}

/** A scriptable source: `readings` is what it returns, `calls` counts each reader, `failing` makes one throw. */
export function createFakeSource(overrides: Partial<FakeReadings> = {}) {
  const readings: FakeReadings = {
    cpu: { total: { busy: 0, total: 0 }, cores: [{ busy: 0, total: 0 }] },
    loadAverage: [0.5, 0.4, 0.3],
    memory: { totalBytes: 8 * 1024 ** 3, availableBytes: 6 * 1024 ** 3, swapTotalBytes: 0, swapFreeBytes: 0 },
    uptimeSeconds: 1000,
    network: [
      { name: 'lo', rxBytes: 0, txBytes: 0 },
      { name: 'eth0', rxBytes: 0, txBytes: 0 },
    ],
    diskIo: [{ device: 'vda', readBytes: 0, writeBytes: 0, whole: true }],
    fileSystems: [
      {
        mount: '/',
        filesystem: '/dev/vda',
        type: 'ext4',
        totalBytes: 100,
        usedBytes: 40,
        availableBytes: 60,
        device: 'vda',
      },
    ],
    processes: [],
    temperatures: null,
    battery: null,
    cpuFrequencyMhz: null,
    gpus: null,
    ...overrides,
  };
  const calls: Record<string, number> = {};
  const failing = new Set<string>();
  const reader =
    <K extends keyof FakeReadings>(name: K) =>
    () => {
      calls[name] = (calls[name] ?? 0) + 1;
      if (failing.has(name)) throw new Error(`${name} exploded`);
      return structuredClone(readings[name]);
    };
  const source: MetricsSource = {
    name: 'fake',
    cpu: reader('cpu'),
    loadAverage: reader('loadAverage'),
    memory: reader('memory'),
    uptimeSeconds: reader('uptimeSeconds'),
    network: reader('network'),
    diskIo: reader('diskIo'),
    fileSystems: reader('fileSystems'),
    processes: reader('processes'),
    temperatures: reader('temperatures'),
    battery: reader('battery'),
    cpuFrequencyMhz: reader('cpuFrequencyMhz'),
    gpus: reader('gpus'),
    cpuInfo: () => ({ cores: 1, model: 'Fake CPU' }),
  };
  return { source, readings, calls, failing };
}

/** A clock tests move by hand. */
export function createManualClock(start = 1_700_000_000_000) {
  let now = start;
  return {
    now: () => now,
    advance(ms: number) {
      now += ms;
    },
    set(value: number) {
      now = value;
    },
  };
}

/** A logger that keeps what it is told. */
export function createRecordingLogger() {
  const entries: Array<{ level: string; details: object; message: string | undefined }> = [];
  const at = (level: string) => (details: object, message?: string) => {
    entries.push({ level, details, message });
  };
  return { logger: { debug: at('debug'), info: at('info'), warn: at('warn'), error: at('error') }, entries };
}
