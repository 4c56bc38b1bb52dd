import { describe, expect, it } from 'vitest';
import {
  decodeDeviceNumber,
  parseDiskstats,
  parseMeminfo,
  parseMounts,
  parseNetDev,
  parseProcessStat,
  parseProcStat,
} from './proc-parse.js';

describe('parseProcStat', () => {
  const text = [
    'cpu  100 10 50 800 40 5 5 0 7 0',
    'cpu0 60 5 25 400 20 3 2 0 7 0',
    'cpu1 40 5 25 400 20 2 3 0 0 0',
    'intr 12345 0 0',
    'ctxt 999',
  ].join('\n');

  it('counts user, nice, system, irq, softirq and steal as busy and idle plus iowait as idle', () => {
    expect(parseProcStat(text).total).toEqual({ busy: 170, total: 1010 });
  });

  it('reads one entry per core in order', () => {
    expect(parseProcStat(text).cores).toEqual([
      { busy: 95, total: 515 },
      { busy: 75, total: 495 },
    ]);
  });
});

describe('parseMeminfo', () => {
  it('converts kB to bytes and uses MemAvailable', () => {
    const text =
      'MemTotal: 1000 kB\nMemFree: 100 kB\nMemAvailable: 600 kB\nSwapTotal: 50 kB\nSwapFree: 20 kB\n';
    expect(parseMeminfo(text)).toEqual({
      totalBytes: 1_024_000,
      availableBytes: 614_400,
      swapTotalBytes: 51_200,
      swapFreeBytes: 20_480,
    });
  });

  it('falls back to free plus buffers plus cache on kernels without MemAvailable', () => {
    const text = 'MemTotal: 1000 kB\nMemFree: 100 kB\nBuffers: 50 kB\nCached: 200 kB\n';
    expect(parseMeminfo(text).availableBytes).toBe(350 * 1024);
  });
});

describe('parseNetDev', () => {
  it('reads received and transmitted bytes per interface', () => {
    const text = [
      'Inter-|   Receive                                                |  Transmit',
      ' face |bytes    packets errs drop fifo frame compressed multicast|bytes    packets errs drop fifo colls carrier compressed',
      '    lo:  166962    1200    0    0    0     0          0         0   166962    1200    0    0    0     0       0          0',
      '  eth0: 457413367   12625    0    0    0     0          0         0   913434    8262    0    0    0     0       0          0',
    ].join('\n');
    expect(parseNetDev(text)).toEqual([
      { name: 'lo', rxBytes: 166962, txBytes: 166962 },
      { name: 'eth0', rxBytes: 457413367, txBytes: 913434 },
    ]);
  });
});

describe('parseDiskstats', () => {
  it('turns sectors read and written into bytes of 512', () => {
    const text =
      ' 254       0 vda 37344 8545 2253834 13641 19800 18741 2555496 15322 0 9468 31124 8180 88 300808 1931 2902 228';
    expect(parseDiskstats(text)).toEqual([
      { major: 254, minor: 0, name: 'vda', readBytes: 2253834 * 512, writeBytes: 2555496 * 512 },
    ]);
  });
});

describe('parseMounts', () => {
  it('decodes the octal escapes of spaces in mount points', () => {
    expect(parseMounts('/dev/sdb1 /media/My\\040Disk vfat rw 0 0\n')).toEqual([
      { filesystem: '/dev/sdb1', mount: '/media/My Disk', type: 'vfat' },
    ]);
  });
});

describe('parseProcessStat', () => {
  it('reads a name that holds spaces and parentheses', () => {
    const fields = Array.from({ length: 50 }, (_, index) => String(index));
    fields[11] = '300'; // utime (field 14)
    fields[12] = '200'; // stime (field 15)
    fields[21] = '1234'; // rss (field 24)
    const stat = parseProcessStat(`42 (my (odd) name) ${fields.join(' ')}`);
    expect(stat).toEqual({ name: 'my (odd) name', cpuTicks: 500, rssPages: 1234 });
  });

  it('returns null for text that is not a stat line', () => {
    expect(parseProcessStat('')).toBeNull();
  });
});

describe('decodeDeviceNumber', () => {
  it('decodes a small device number', () => {
    expect(decodeDeviceNumber(254 * 256)).toEqual({ major: 254, minor: 0 });
  });

  it('decodes a minor number above 255 (the high bits sit above the major)', () => {
    // makedev(8, 256): minor bits 8-19 go to bits 20-31.
    expect(decodeDeviceNumber(0x100000 | (8 << 8))).toEqual({ major: 8, minor: 256 });
  });
});
