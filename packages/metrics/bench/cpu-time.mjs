// @ts-check
import { readFileSync } from 'node:fs';

/** Linux counts CPU time in /proc in USER_HZ ticks: 100 per second on every architecture. */
const msPerTick = 10;

/**
 * CPU time of this process (all its threads) and of the children it has waited for (the `ps`,
 * `df` and shells systeminformation spawns): its own from `process.cpuUsage()`, its children's
 * from the cutime and cstime fields of `/proc/self/stat`.
 * @returns {{ selfMs: number, childrenMs: number }}
 */
export function readCpuTime() {
  const usage = process.cpuUsage();
  const stat = readFileSync('/proc/self/stat', 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  // fields[0] is field 3 (state): cutime is field 16, cstime field 17.
  const childrenTicks = Number(fields[13]) + Number(fields[14]);
  return { selfMs: (usage.user + usage.system) / 1000, childrenMs: childrenTicks * msPerTick };
}

/**
 * CPU time spent since an earlier reading.
 * @param {{ selfMs: number, childrenMs: number }} before
 */
export function cpuTimeSince(before) {
  const now = readCpuTime();
  return { selfMs: now.selfMs - before.selfMs, childrenMs: now.childrenMs - before.childrenMs };
}
