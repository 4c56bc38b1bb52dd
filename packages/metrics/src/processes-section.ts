import { processCpuPercent } from './rates.js';
import type { Timed } from './sections.js';
import type { ProcessesMetrics, ProcessMetrics } from './snapshot-types.js';
import type { ProcessReading } from './source-types.js';

/**
 * The top processes by CPU and by memory from two process readings. CPU comes from the
 * difference of cumulative CPU time where the source gives it, else from its own percentage.
 */
export function processesSection(
  previous: Timed<ProcessReading[]> | undefined,
  current: Timed<ProcessReading[]>,
  top: number,
): ProcessesMetrics {
  const before = new Map<number, number | null>();
  for (const reading of previous?.value ?? []) before.set(reading.pid, reading.cpuTimeMs);
  const elapsed = previous ? current.time - previous.time : 0;
  const all: ProcessMetrics[] = current.value.map((reading) => ({
    pid: reading.pid,
    name: reading.name,
    cpuPercent:
      reading.cpuTimeMs === null
        ? reading.cpuPercent
        : processCpuPercent(before.get(reading.pid) ?? undefined, reading.cpuTimeMs, elapsed),
    memoryBytes: reading.memoryBytes,
  }));
  const byCpu = all
    .filter((entry) => entry.cpuPercent !== null)
    .sort((a, b) => (b.cpuPercent ?? 0) - (a.cpuPercent ?? 0))
    .slice(0, top);
  const byMemory = all
    .filter((entry) => entry.memoryBytes !== null)
    .sort((a, b) => (b.memoryBytes ?? 0) - (a.memoryBytes ?? 0))
    .slice(0, top);
  return { sampledAt: current.time, total: all.length, byCpu, byMemory };
}
