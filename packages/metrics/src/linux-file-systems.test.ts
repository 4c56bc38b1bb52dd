import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { readLinuxFileSystems } from './linux-file-systems.js';

describe.runIf(process.platform === 'linux')('readLinuxFileSystems', () => {
  it('keeps local disks and leaves out kernel, memory and network file systems and bind mounts', async () => {
    const directory = mkdtempSync(join(tmpdir(), 'metrics-mounts-'));
    try {
      const mounts = join(directory, 'mounts');
      writeFileSync(
        mounts,
        [
          'proc /proc proc rw 0 0',
          '/dev/fake / ext4 rw 0 0',
          'tmpfs /tmp tmpfs rw 0 0',
          'server:/export /tmp nfs4 rw 0 0',
          'sshfs#me@host: /tmp fuse.sshfs rw 0 0',
          '/dev/fake /tmp ext4 rw 0 0',
          '',
        ].join('\n'),
      );
      const readings = await readLinuxFileSystems(mounts);
      expect(readings.map((reading) => [reading.mount, reading.filesystem, reading.type])).toEqual([
        ['/', '/dev/fake', 'ext4'],
      ]);
      expect(readings[0]?.totalBytes).toBeGreaterThan(0);
    } finally {
      rmSync(directory, { recursive: true, force: true });
    }
  });

  it('names the block device behind the root file system of this machine', async () => {
    const root = (await readLinuxFileSystems()).find((reading) => reading.mount === '/');
    expect(root).toBeDefined();
    // An overlay root (a container) has no block device of its own; a /dev/ one always has.
    if (root?.filesystem.startsWith('/dev/')) expect(root.device).toMatch(/^[a-z]/);
    else expect(root?.device).toBeNull();
  });
});
