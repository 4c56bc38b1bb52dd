import { describe, expect, it } from 'vitest';
import { collectSnapshot, createProcSource, createSystemInformationSource } from '../src/index.js';

describe.runIf(process.platform === 'linux')(
  'the systeminformation source against /proc on this machine',
  () => {
    it('agrees on total memory and the root disk size', async () => {
      const si = createSystemInformationSource();
      const proc = createProcSource();
      const [siMemory, procMemory] = await Promise.all([si.memory(), proc.memory()]);
      expect(siMemory?.totalBytes).toBe(procMemory?.totalBytes);
      const [siDisks, procDisks] = await Promise.all([si.fileSystems(), proc.fileSystems()]);
      const siRoot = siDisks?.find((disk) => disk.mount === '/');
      const procRoot = procDisks?.find((disk) => disk.mount === '/');
      expect(procRoot?.totalBytes).toBe(siRoot?.totalBytes);
    });

    it('makes a complete snapshot on its own, with nulls for what it cannot tell', async () => {
      const snapshot = await collectSnapshot({ source: createSystemInformationSource(), windowMs: 300 });
      expect(snapshot.cpu.usagePercent).toBeGreaterThanOrEqual(0);
      expect(snapshot.memory?.usedPercent).toBeGreaterThan(0);
      expect(snapshot.disks?.some((disk) => disk.mount === '/')).toBe(true);
      // systeminformation has machine-wide disk counters only: per-disk rates are unknown, not zero.
      expect(snapshot.disks?.every((disk) => disk.readBytesPerSecond === null)).toBe(true);
      expect(snapshot.processes?.total).toBeGreaterThan(1);
    });
  },
);
