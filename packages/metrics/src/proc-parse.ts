import type { CpuReading, CpuTimesReading, MemoryReading, NetworkInterfaceReading } from './source-types.js';

/**
 * Pure parsers for the Linux `/proc` files the collector reads. Kept apart from the file
 * reading so they can be tested against fixed text.
 */

function cpuLine(fields: string[]): CpuTimesReading {
  // user nice system idle iowait irq softirq steal (guest time is already inside user).
  const value = (index: number) => Number(fields[index] ?? 0);
  const busy = value(1) + value(2) + value(3) + value(6) + value(7) + value(8);
  const idle = value(4) + value(5);
  return { busy, total: busy + idle };
}

/** Parses `/proc/stat` into machine and per-core CPU ticks. */
export function parseProcStat(text: string): CpuReading {
  let total: CpuTimesReading = { busy: 0, total: 0 };
  const cores: CpuTimesReading[] = [];
  for (const line of text.split('\n')) {
    if (!line.startsWith('cpu')) {
      if (cores.length > 0) break; // the cpu lines come first and together
      continue;
    }
    const fields = line.split(/\s+/);
    if (fields[0] === 'cpu') total = cpuLine(fields);
    else cores.push(cpuLine(fields));
  }
  return { total, cores };
}

/** Parses `/proc/meminfo` (values in kB) into bytes. */
export function parseMeminfo(text: string): MemoryReading {
  const values = new Map<string, number>();
  for (const line of text.split('\n')) {
    const colon = line.indexOf(':');
    if (colon > 0) values.set(line.slice(0, colon), Number.parseInt(line.slice(colon + 1), 10) * 1024);
  }
  const totalBytes = values.get('MemTotal') ?? 0;
  // Kernels before 3.14 have no MemAvailable: free + buffers + cache is the usual stand-in.
  const availableBytes =
    values.get('MemAvailable') ??
    (values.get('MemFree') ?? 0) + (values.get('Buffers') ?? 0) + (values.get('Cached') ?? 0);
  return {
    totalBytes,
    availableBytes,
    swapTotalBytes: values.get('SwapTotal') ?? 0,
    swapFreeBytes: values.get('SwapFree') ?? 0,
  };
}

/** Parses `/proc/net/dev` into cumulative bytes per interface. */
export function parseNetDev(text: string): NetworkInterfaceReading[] {
  const interfaces: NetworkInterfaceReading[] = [];
  for (const line of text.split('\n')) {
    const colon = line.indexOf(':');
    if (colon < 0) continue;
    const name = line.slice(0, colon).trim();
    const fields = line
      .slice(colon + 1)
      .trim()
      .split(/\s+/);
    if (fields.length < 9) continue;
    interfaces.push({ name, rxBytes: Number(fields[0]), txBytes: Number(fields[8]) });
  }
  return interfaces;
}

/** One line of `/proc/diskstats`. */
export interface DiskstatsEntry {
  major: number;
  minor: number;
  name: string;
  readBytes: number;
  writeBytes: number;
}

/** Parses `/proc/diskstats`; sectors there are always 512 bytes, whatever the device's. */
export function parseDiskstats(text: string): DiskstatsEntry[] {
  const entries: DiskstatsEntry[] = [];
  for (const line of text.split('\n')) {
    const fields = line.trim().split(/\s+/);
    if (fields.length < 10) continue;
    entries.push({
      major: Number(fields[0]),
      minor: Number(fields[1]),
      name: fields[2] ?? '',
      readBytes: Number(fields[5]) * 512,
      writeBytes: Number(fields[9]) * 512,
    });
  }
  return entries;
}

/** One line of `/proc/self/mounts`. */
export interface MountEntry {
  filesystem: string;
  mount: string;
  type: string;
}

/** Parses `/proc/self/mounts`, undoing its octal escapes (`\040` for a space). */
export function parseMounts(text: string): MountEntry[] {
  const decode = (value: string) =>
    value.replace(/\\([0-7]{3})/g, (_, octal: string) => String.fromCharCode(Number.parseInt(octal, 8)));
  const mounts: MountEntry[] = [];
  for (const line of text.split('\n')) {
    const fields = line.split(' ');
    if (fields.length < 3) continue;
    mounts.push({
      filesystem: decode(fields[0] ?? ''),
      mount: decode(fields[1] ?? ''),
      type: fields[2] ?? '',
    });
  }
  return mounts;
}

/** The fields of `/proc/<pid>/stat` the process list needs. */
export interface ProcessStat {
  name: string;
  /** utime + stime in clock ticks. */
  cpuTicks: number;
  rssPages: number;
}

/** Parses `/proc/<pid>/stat`; the name sits in parentheses and may itself hold spaces or parentheses. */
export function parseProcessStat(text: string): ProcessStat | null {
  const open = text.indexOf('(');
  const close = text.lastIndexOf(')');
  if (open < 0 || close < open) return null;
  // Walk the space-separated fields after the name without splitting: this runs for every
  // process on every process-list read. Field 3 (state) starts at close + 2; utime is field 14,
  // stime 15, rss 24.
  let utime = Number.NaN;
  let stime = Number.NaN;
  let rss = Number.NaN;
  let field = 3;
  let start = close + 2;
  while (start < text.length && field <= 24) {
    let end = text.indexOf(' ', start);
    if (end < 0) end = text.length;
    if (field === 14) utime = Number(text.slice(start, end));
    else if (field === 15) stime = Number(text.slice(start, end));
    else if (field === 24) rss = Number(text.slice(start, end));
    field += 1;
    start = end + 1;
  }
  if (!Number.isFinite(utime) || !Number.isFinite(stime)) return null;
  return {
    name: text.slice(open + 1, close),
    cpuTicks: utime + stime,
    rssPages: Number.isFinite(rss) ? rss : 0,
  };
}

/** Decodes a Linux `dev_t` (as `fs.stat` returns it) into major and minor numbers. */
export function decodeDeviceNumber(dev: number): { major: number; minor: number } {
  // glibc's gnu_dev_major/minor; plain arithmetic because the value can exceed 32 bits.
  const high = Math.floor(dev / 2 ** 32);
  const low = dev % 2 ** 32;
  const major = ((low >>> 8) & 0xfff) | ((high & 0xfffff000) >>> 0);
  const minor = ((low & 0xff) | ((low >>> 12) & 0xfff00) | ((high & 0xfff) << 20)) >>> 0;
  return { major, minor };
}
