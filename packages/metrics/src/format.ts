import type { MetricsSnapshot } from './snapshot-types.js';

/** Sizes in binary units, as memory and disks are sold and shown: `5.1 GiB`. */
export function formatBytes(bytes: number): string {
  const units = ['B', 'KiB', 'MiB', 'GiB', 'TiB', 'PiB'];
  let value = bytes;
  let unit = 0;
  while (Math.abs(value) >= 1024 && unit < units.length - 1) {
    value /= 1024;
    unit += 1;
  }
  return `${unit === 0 ? Math.round(value) : value.toFixed(1)} ${units[unit]}`;
}

/** Transfer rates in decimal units, as network speeds are quoted: `1.2 MB/s`, `40 kB/s`. */
export function formatRate(bytesPerSecond: number): string {
  const units = ['B/s', 'kB/s', 'MB/s', 'GB/s', 'TB/s'];
  let value = bytesPerSecond;
  let unit = 0;
  while (Math.abs(value) >= 1000 && unit < units.length - 1) {
    value /= 1000;
    unit += 1;
  }
  const digits = unit === 0 || value >= 100 ? 0 : value >= 10 ? 0 : 1;
  return `${value.toFixed(digits)} ${units[unit]}`;
}

/** A whole percentage: `12%`. */
export function formatPercent(percent: number): string {
  return `${Math.round(percent)}%`;
}

/** Size in GiB with one decimal, without the unit: `5.1`. */
function gibibytes(bytes: number): string {
  return (bytes / 1024 ** 3).toFixed(1);
}

/**
 * One line for a prompt or a status bar:
 * `CPU 12% · load 0.4 · mem 5.1/23.4 GiB · disk / 22% · net ↓1.2 MB/s ↑40 kB/s`.
 * Parts the platform does not report are left out; temperature and battery appear when known.
 * The disk shown is the fullest one.
 */
export function formatSummaryLine(snapshot: MetricsSnapshot | null): string {
  if (!snapshot) return 'metrics: no sample yet';
  const parts: string[] = [];
  const { cpu, memory, disks, network, temperatures, battery } = snapshot;
  if (cpu.usagePercent !== null) parts.push(`CPU ${formatPercent(cpu.usagePercent)}`);
  if (cpu.loadAverage) parts.push(`load ${cpu.loadAverage.one.toFixed(1)}`);
  if (memory) parts.push(`mem ${gibibytes(memory.usedBytes)}/${gibibytes(memory.totalBytes)} GiB`);
  const fullest = [...(disks ?? [])].sort((a, b) => b.usedPercent - a.usedPercent)[0];
  if (fullest) parts.push(`disk ${fullest.mount} ${formatPercent(fullest.usedPercent)}`);
  if (network && network.rxBytesPerSecond !== null && network.txBytesPerSecond !== null) {
    parts.push(`net ↓${formatRate(network.rxBytesPerSecond)} ↑${formatRate(network.txBytesPerSecond)}`);
  }
  const celsius = temperatures?.cpuCelsius ?? temperatures?.maxCelsius;
  if (celsius !== undefined && celsius !== null) parts.push(`${Math.round(celsius)}°C`);
  if (battery) parts.push(`battery ${formatPercent(battery.percent)}${battery.charging ? ' charging' : ''}`);
  return parts.length > 0 ? parts.join(' · ') : 'metrics: nothing measured yet';
}
