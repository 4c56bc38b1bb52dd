import { readFileSync } from 'node:fs';

/** Linux counts CPU time in /proc in USER_HZ ticks: 100 per second on every architecture. */
const msPerTick = 10;

/** CPU time of this process and of the children it has waited for (the `ps`, `df` and shells systeminformation spawns). */
export interface CpuTime {
  selfMs: number;
  childrenMs: number;
}

/** Reads this process's CPU time: its own from `process.cpuUsage()`, its children's from `/proc/self/stat`. */
export function readCpuTime(): CpuTime {
  const usage = process.cpuUsage();
  const stat = readFileSync('/proc/self/stat', 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  // fields[0] is field 3 (state): cutime is field 16, cstime field 17.
  const childrenTicks = Number(fields[13]) + Number(fields[14]);
  return { selfMs: (usage.user + usage.system) / 1000, childrenMs: childrenTicks * msPerTick };
}

/** CPU time spent between two readings. */
export function cpuTimeSince(before: CpuTime): CpuTime {
  const now = readCpuTime();
  return { selfMs: now.selfMs - before.selfMs, childrenMs: now.childrenMs - before.childrenMs };
}
