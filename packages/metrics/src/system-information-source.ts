import { loadavg, uptime } from 'node:os';
import {
  loadSystemInformation,
  measured,
  readBatteryWithSystemInformation,
  readCpuInfoWithOs,
  readCpuWithOs,
  readGpusWithSystemInformation,
  readTemperaturesWithSystemInformation,
} from './si-readers.js';
import type { MetricsSource } from './source-types.js';

/**
 * A source built on systeminformation and Node's `os` module: works on Linux, macOS and
 * Windows. On Linux it spawns helper processes for the network, disk and process readings,
 * which is why {@link createDefaultSource} prefers {@link createProcSource} there.
 */
export function createSystemInformationSource(): MetricsSource {
  return {
    name: 'systeminformation',
    cpu: readCpuWithOs,
    // Windows has no load average: os.loadavg() answers zeros there, which would be a lie.
    loadAverage: () => (process.platform === 'win32' ? null : (loadavg() as [number, number, number])),
    async memory() {
      const data = await (await loadSystemInformation()).mem();
      return {
        totalBytes: data.total,
        availableBytes: data.available,
        swapTotalBytes: data.swaptotal,
        swapFreeBytes: data.swapfree,
      };
    },
    uptimeSeconds: () => uptime(),
    async network() {
      const stats = await (await loadSystemInformation()).networkStats('*');
      return stats.map((stat) => ({ name: stat.iface, rxBytes: stat.rx_bytes, txBytes: stat.tx_bytes }));
    },
    async diskIo() {
      // Byte counters for all disks together; Windows has none (systeminformation resolves null).
      const stats = await (await loadSystemInformation()).fsStats();
      if (!stats || measured(stats.rx) === null) return null;
      return [{ device: '*', readBytes: stats.rx, writeBytes: stats.wx, whole: true }];
    },
    async fileSystems() {
      const sizes = await (await loadSystemInformation()).fsSize();
      return sizes
        .filter((size) => size.size > 0)
        .map((size) => ({
          mount: size.mount,
          filesystem: size.fs,
          type: size.type,
          totalBytes: size.size,
          usedBytes: size.used,
          availableBytes: size.available,
          device: null,
        }));
    },
    async processes() {
      const data = await (await loadSystemInformation()).processes();
      return data.list.map((entry) => ({
        pid: entry.pid,
        name: entry.name,
        cpuTimeMs: null,
        cpuPercent: measured(entry.cpu),
        memoryBytes: measured(entry.memRss) === null ? null : entry.memRss * 1024,
      }));
    },
    temperatures: readTemperaturesWithSystemInformation,
    battery: readBatteryWithSystemInformation,
    async cpuFrequencyMhz() {
      const speed = await (await loadSystemInformation()).cpuCurrentSpeed();
      // systeminformation answers 0 GHz when it cannot tell; that is unknown, not zero.
      return speed.avg > 0 ? speed.avg * 1000 : null;
    },
    gpus: readGpusWithSystemInformation,
    cpuInfo: readCpuInfoWithOs,
  };
}
