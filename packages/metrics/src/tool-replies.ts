import { formatBytes, formatPercent, formatRate } from './format.js';
import type { MetricsSnapshot, ProcessMetrics } from './snapshot-types.js';

/** The sections the METRICS tool answers for. */
export const METRICS_TOOL_SECTIONS = ['cpu', 'memory', 'disk', 'network', 'processes', 'all'] as const;

/** One of {@link METRICS_TOOL_SECTIONS}. */
export type MetricsToolSection = (typeof METRICS_TOOL_SECTIONS)[number];

const unknown = 'not reported';

/** CPU use, load, clock and temperature. */
export function describeCpu(snapshot: MetricsSnapshot): string[] {
  const { cpu, temperatures } = snapshot;
  const usage =
    cpu.usagePercent === null ? `CPU use ${unknown} yet` : `CPU ${formatPercent(cpu.usagePercent)}`;
  const cores = cpu.perCorePercent
    ? ` (per core ${cpu.perCorePercent.map((value) => (value === null ? '?' : formatPercent(value))).join(' ')})`
    : '';
  const facts = [`${cpu.cores} cores${cpu.model ? `, ${cpu.model}` : ''}`];
  if (cpu.frequencyMhz !== null) facts.push(`${(cpu.frequencyMhz / 1000).toFixed(2)} GHz`);
  const load = cpu.loadAverage
    ? `load ${cpu.loadAverage.one.toFixed(2)} ${cpu.loadAverage.five.toFixed(2)} ${cpu.loadAverage.fifteen.toFixed(2)}`
    : `load average ${unknown}`;
  const celsius = temperatures?.cpuCelsius ?? temperatures?.maxCelsius ?? null;
  const temperature =
    celsius === null ? `temperature ${unknown} (no sensor)` : `temperature ${Math.round(celsius)}°C`;
  return [`${usage}${cores}; ${load}`, `${facts.join(', ')}; ${temperature}`];
}

/** Memory and swap. */
export function describeMemory(snapshot: MetricsSnapshot): string[] {
  const memory = snapshot.memory;
  if (!memory) return [`Memory ${unknown}`];
  const swap =
    memory.swapUsedPercent === null
      ? 'no swap'
      : `swap ${formatBytes(memory.swapUsedBytes)} of ${formatBytes(memory.swapTotalBytes)} (${formatPercent(memory.swapUsedPercent)})`;
  return [
    `Memory ${formatBytes(memory.usedBytes)} of ${formatBytes(memory.totalBytes)} used (${formatPercent(memory.usedPercent)}), ${formatBytes(memory.availableBytes)} available; ${swap}`,
  ];
}

/** Each disk's usage and I/O. */
export function describeDisks(snapshot: MetricsSnapshot): string[] {
  if (!snapshot.disks) return [`Disks ${unknown}`];
  if (snapshot.disks.length === 0) return ['No local disks mounted'];
  return snapshot.disks.map((disk) => {
    const io =
      disk.readBytesPerSecond === null || disk.writeBytesPerSecond === null
        ? ''
        : `; read ${formatRate(disk.readBytesPerSecond)}, write ${formatRate(disk.writeBytesPerSecond)}`;
    return `Disk ${disk.mount} (${disk.type}): ${formatBytes(disk.usedBytes)} of ${formatBytes(disk.totalBytes)} used (${formatPercent(disk.usedPercent)}), ${formatBytes(disk.availableBytes)} free${io}`;
  });
}

/** Network rates, busiest interfaces first. */
export function describeNetwork(snapshot: MetricsSnapshot): string[] {
  const network = snapshot.network;
  if (!network || network.rxBytesPerSecond === null || network.txBytesPerSecond === null) {
    return [`Network rates ${unknown} yet`];
  }
  const busiest = network.interfaces
    .filter((entry) => (entry.rxBytesPerSecond ?? 0) + (entry.txBytesPerSecond ?? 0) > 0)
    .sort(
      (a, b) =>
        (b.rxBytesPerSecond ?? 0) +
        (b.txBytesPerSecond ?? 0) -
        (a.rxBytesPerSecond ?? 0) -
        (a.txBytesPerSecond ?? 0),
    )
    .slice(0, 3)
    .map(
      (entry) =>
        `${entry.name} ↓${formatRate(entry.rxBytesPerSecond ?? 0)} ↑${formatRate(entry.txBytesPerSecond ?? 0)}`,
    );
  const detail = busiest.length > 0 ? ` (${busiest.join(', ')})` : '';
  return [
    `Network ↓${formatRate(network.rxBytesPerSecond)} ↑${formatRate(network.txBytesPerSecond)}${detail}`,
  ];
}

function processLabel(process: ProcessMetrics, value: string): string {
  return `${process.name} (${process.pid}) ${value}`;
}

/** The top processes by CPU and by memory. */
export function describeProcesses(snapshot: MetricsSnapshot): string[] {
  const processes = snapshot.processes;
  if (!processes) return [`Process list ${unknown} yet`];
  const age = Math.max(0, Math.round((snapshot.time - processes.sampledAt) / 1000));
  return [
    `Top CPU: ${processes.byCpu.map((p) => processLabel(p, formatPercent(p.cpuPercent ?? 0))).join(', ') || 'none'}`,
    `Top memory: ${processes.byMemory.map((p) => processLabel(p, formatBytes(p.memoryBytes ?? 0))).join(', ') || 'none'}`,
    `${processes.total} processes, listed ${age} s before this sample`,
  ];
}

/** Uptime, battery and GPUs: the lines only `all` adds. */
export function describeRest(snapshot: MetricsSnapshot): string[] {
  const lines: string[] = [];
  if (snapshot.uptimeSeconds !== null) {
    const hours = snapshot.uptimeSeconds / 3600;
    lines.push(
      `Up ${hours >= 48 ? `${(hours / 24).toFixed(1)} days` : `${hours.toFixed(1)} hours`} (${snapshot.platform})`,
    );
  }
  if (snapshot.battery) {
    const { percent, charging } = snapshot.battery;
    lines.push(
      `Battery ${formatPercent(percent)}${charging === null ? '' : charging ? ', charging' : ', on battery'}`,
    );
  }
  for (const gpu of snapshot.gpus ?? []) {
    const load = gpu.utilizationPercent === null ? '' : ` ${formatPercent(gpu.utilizationPercent)}`;
    const memory =
      gpu.memoryUsedBytes === null || gpu.memoryTotalBytes === null
        ? ''
        : `, ${formatBytes(gpu.memoryUsedBytes)} of ${formatBytes(gpu.memoryTotalBytes)}`;
    lines.push(`GPU ${gpu.model}${load}${memory}`);
  }
  return lines;
}

/** The tool's reply for one section. */
export function describeSection(snapshot: MetricsSnapshot, section: MetricsToolSection): string {
  switch (section) {
    case 'cpu':
      return describeCpu(snapshot).join('\n');
    case 'memory':
      return describeMemory(snapshot).join('\n');
    case 'disk':
      return describeDisks(snapshot).join('\n');
    case 'network':
      return describeNetwork(snapshot).join('\n');
    case 'processes':
      return describeProcesses(snapshot).join('\n');
    case 'all':
      return [
        ...describeRest(snapshot),
        ...describeCpu(snapshot),
        ...describeMemory(snapshot),
        ...describeDisks(snapshot),
        ...describeNetwork(snapshot),
        ...describeProcesses(snapshot),
      ].join('\n');
  }
}
