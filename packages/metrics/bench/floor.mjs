// @ts-check
import { closeSync, openSync, readdirSync, readSync, statfsSync } from 'node:fs';

const buffer = Buffer.allocUnsafe(64 * 1024);

/**
 * The cheapest read Node has: open, read into a reused buffer, close.
 * @param {string} path
 */
function readRaw(path) {
  const descriptor = openSync(path, 'r');
  try {
    return buffer.toString('latin1', 0, readSync(descriptor, buffer, 0, buffer.length, 0));
  } finally {
    closeSync(descriptor);
  }
}

/**
 * The floor: a bare loop that reads the same numbers straight from /proc, with no parsing beyond
 * splitting lines and no collector around it, on the collector's schedule (the process list and
 * disk usage at their slower rates). Nothing cheaper could still measure. Returns its stop function.
 * @param {number} periodMs
 * @param {number} processesMs
 * @param {number} fileSystemsMs
 */
export function startFloorLoop(periodMs, processesMs, fileSystemsMs) {
  let lastProcesses = Number.NEGATIVE_INFINITY;
  let lastFileSystems = Number.NEGATIVE_INFINITY;
  let sink = 0;
  const tick = () => {
    for (const file of ['stat', 'meminfo', 'loadavg', 'uptime', 'net/dev', 'diskstats']) {
      sink += readRaw(`/proc/${file}`).split('\n').length;
    }
    const now = performance.now();
    if (now - lastProcesses >= processesMs) {
      lastProcesses = now;
      for (const entry of readdirSync('/proc')) {
        if (entry.charCodeAt(0) < 48 || entry.charCodeAt(0) > 57) continue;
        try {
          sink += readRaw(`/proc/${entry}/stat`).length;
        } catch {
          // the process ended between the listing and the read
        }
      }
    }
    if (now - lastFileSystems >= fileSystemsMs) {
      lastFileSystems = now;
      sink += statfsSync('/').blocks;
    }
  };
  tick();
  const timer = setInterval(tick, periodMs);
  return () => {
    clearInterval(timer);
    if (sink < 0) throw new Error('unreachable: keeps the reads from being optimised away');
  };
}
