import { existsSync } from 'node:fs';
import { loadavg, uptime } from 'node:os';
import { readLinuxFileSystems } from './linux-file-systems.js';
import { readLinuxProcesses } from './linux-processes.js';
import {
  discoverLinuxTemperatureSensors,
  listDirectory,
  readLinuxBattery,
  readLinuxCpuFrequencyMhz,
  readLinuxTemperatures,
} from './linux-sensors.js';
import { parseDiskstats, parseMeminfo, parseNetDev, parseProcStat } from './proc-parse.js';
import { readRequiredProcFile } from './read-proc-file.js';
import { readCpuInfoWithOs, readGpusWithSystemInformation } from './si-readers.js';
import type { DiskDeviceReading, MetricsSource } from './source-types.js';

/**
 * Block devices whose I/O is also counted on the disks beneath them (loop files, device mapper,
 * software RAID) or that are memory (zram, ram disks): left out of the machine total.
 */
const stackedOrVirtual = /^(loop|ram|zram|dm-|md)/;

/** Where the Linux source reads from; tests point it at fixture trees. */
export interface ProcSourceOptions {
  /** Root of the proc file system. Default `/proc`. */
  procRoot?: string;
  /** Root of sysfs. Default `/sys`. */
  sysRoot?: string;
}

/**
 * The Linux source: reads `/proc` and `/sys` directly and spawns no process for the per-sample
 * readings, the process list or the disks. systeminformation's equivalents spawn `ps`, `df` and
 * shell loops costing 10–100 ms of CPU each on a two-core VM; these reads cost well under a
 * millisecond. Battery and GPU still go through systeminformation, at their slow rates, and
 * only when `/sys/class/drm` or `/dev/nvidia0` shows there is a GPU to ask about.
 */
export function createProcSource(options: ProcSourceOptions = {}): MetricsSource {
  const procRoot = options.procRoot ?? '/proc';
  const sysRoot = options.sysRoot ?? '/sys';
  let sensors: ReturnType<typeof discoverLinuxTemperatureSensors> | undefined;
  let wholeDisks: Set<string> | undefined;

  const listWholeDisks = () => new Set(listDirectory(`${sysRoot}/block`));

  return {
    name: 'proc',
    cpu: () => parseProcStat(readRequiredProcFile(`${procRoot}/stat`)),
    loadAverage: () => loadavg() as [number, number, number],
    memory: () => parseMeminfo(readRequiredProcFile(`${procRoot}/meminfo`)),
    uptimeSeconds: () => uptime(),
    network: () => parseNetDev(readRequiredProcFile(`${procRoot}/net/dev`)),
    diskIo(): DiskDeviceReading[] {
      wholeDisks ??= listWholeDisks();
      const disks = wholeDisks;
      return parseDiskstats(readRequiredProcFile(`${procRoot}/diskstats`)).map((entry) => ({
        device: entry.name,
        readBytes: entry.readBytes,
        writeBytes: entry.writeBytes,
        whole: disks.has(entry.name) && !stackedOrVirtual.test(entry.name),
      }));
    },
    fileSystems() {
      wholeDisks = listWholeDisks(); // disks come and go as slowly as mounts do
      return readLinuxFileSystems(`${procRoot}/self/mounts`);
    },
    processes: () => readLinuxProcesses(procRoot),
    temperatures() {
      sensors ??= discoverLinuxTemperatureSensors(sysRoot);
      return sensors.length === 0 ? null : readLinuxTemperatures(sensors);
    },
    battery: () => readLinuxBattery(sysRoot),
    cpuFrequencyMhz: () => readLinuxCpuFrequencyMhz(sysRoot, `${procRoot}/cpuinfo`),
    gpus() {
      // No display device and no NVIDIA device node: no GPU, and no lspci to spawn to learn that.
      const cards = listDirectory(`${sysRoot}/class/drm`).some((name) => /^card\d+$/.test(name));
      return cards || existsSync('/dev/nvidia0') ? readGpusWithSystemInformation() : [];
    },
    cpuInfo: readCpuInfoWithOs,
  };
}
