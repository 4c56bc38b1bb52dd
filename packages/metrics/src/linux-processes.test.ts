import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { linuxPageSize, readLinuxProcesses } from './linux-processes.js';

describe.runIf(process.platform === 'linux')('readLinuxProcesses', () => {
  it('lists this process with its name, CPU time and resident memory', () => {
    const self = readLinuxProcesses().find((entry) => entry.pid === process.pid);
    expect(self).toBeDefined();
    expect(self?.cpuTimeMs).toBeGreaterThan(0);
    expect(self?.cpuPercent).toBeNull();
    // Resident memory read from /proc matches Node's own figure within a few pages.
    expect(Math.abs((self?.memoryBytes ?? 0) - process.memoryUsage.rss())).toBeLessThan(64 * 1024 * 1024);
  });

  it('skips entries that are not processes or vanished before their read', () => {
    const root = mkdtempSync(join(tmpdir(), 'metrics-proc-'));
    try {
      mkdirSync(join(root, 'self'));
      mkdirSync(join(root, '123'));
      mkdirSync(join(root, '456')); // no stat file: the process ended
      const fields = Array.from({ length: 50 }, () => '0');
      fields[11] = '250';
      fields[21] = '10';
      writeFileSync(join(root, '123', 'stat'), `123 (worker one) ${fields.join(' ')}`);
      expect(readLinuxProcesses(root)).toEqual([
        {
          pid: 123,
          name: 'worker one',
          cpuTimeMs: 2500,
          cpuPercent: null,
          memoryBytes: 10 * linuxPageSize(),
        },
      ]);
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  });

  it('finds a power-of-two page size', () => {
    expect(Math.log2(linuxPageSize()) % 1).toBe(0);
  });
});
