// What the fault soak reads about processes from /proc (Linux): descendants, RSS, liveness.
import { readdirSync, readFileSync } from 'node:fs';

function stat(pid) {
  try {
    const text = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // The command name is in parentheses and may hold spaces: fields start after the last ')'.
    const fields = text.slice(text.lastIndexOf(')') + 2).split(' ');
    return { state: fields[0], ppid: Number(fields[1]) };
  } catch {
    return undefined;
  }
}

/** The command line of a process, arguments joined by spaces; empty when it is gone. */
export function commandLine(pid) {
  try {
    return readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').join(' ').trim();
  } catch {
    return '';
  }
}

/** Every live process below `root` (children, their children, …). */
export function descendants(root) {
  const children = new Map();
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    const info = stat(name);
    if (!info) continue;
    const list = children.get(info.ppid) ?? [];
    list.push(Number(name));
    children.set(info.ppid, list);
  }
  const found = [];
  const queue = [root];
  while (queue.length > 0) {
    for (const child of children.get(queue.shift()) ?? []) {
      found.push(child);
      queue.push(child);
    }
  }
  return found;
}

/** Alive and not a zombie. */
export function isAlive(pid) {
  const info = stat(pid);
  return info !== undefined && info.state !== 'Z' && info.state !== 'X';
}

/** Resident set size in bytes, or undefined when the process is gone. */
export function rssBytes(pid) {
  try {
    const match = /^VmRSS:\s+(\d+) kB/m.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return match ? Number(match[1]) * 1024 : undefined;
  } catch {
    return undefined;
  }
}
