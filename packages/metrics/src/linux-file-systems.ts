import { readFileSync, readlinkSync } from 'node:fs';
import { stat, statfs } from 'node:fs/promises';
import { basename } from 'node:path';
import { decodeDeviceNumber, parseMounts } from './proc-parse.js';
import type { FileSystemReading } from './source-types.js';

/**
 * File system types that are not disks (kernel views, memory-backed, or network mounts that
 * could hang a `statfs`): left out, as `df -l` leaves them out.
 */
const skippedTypes = new Set([
  'autofs',
  'binfmt_misc',
  'bpf',
  'cgroup',
  'cgroup2',
  'cifs',
  'configfs',
  'debugfs',
  'devpts',
  'devtmpfs',
  'efivarfs',
  'fusectl',
  'hugetlbfs',
  'mqueue',
  'nfs',
  'nfs4',
  'nsfs',
  'proc',
  'pstore',
  'ramfs',
  'rpc_pipefs',
  'securityfs',
  'smb3',
  'squashfs',
  'sysfs',
  'tmpfs',
  'tracefs',
]);

function isDiskMount(filesystem: string, type: string): boolean {
  if (skippedTypes.has(type)) return false;
  // FUSE mounts are network or virtual (sshfs, gvfs, portals) except block-backed fuseblk (NTFS).
  if (type.startsWith('fuse') && type !== 'fuseblk') return false;
  return filesystem.startsWith('/') || type === 'overlay' || type === 'zfs' || type === 'btrfs';
}

/** The kernel's name for the block device behind a mount (`vda`, `dm-0`), via `/sys/dev/block`. */
async function deviceOf(mount: string): Promise<string | null> {
  try {
    const { major, minor } = decodeDeviceNumber((await stat(mount)).dev);
    return basename(readlinkSync(`/sys/dev/block/${major}:${minor}`));
  } catch {
    return null; // anonymous devices (overlay, btrfs subvolumes) have no block device entry
  }
}

/**
 * Reads mounted local disks with `statfs` and `/proc/self/mounts`: no `df` process, and a hung
 * network mount cannot block the event loop because network file systems are skipped and
 * `statfs` runs on the thread pool.
 */
export async function readLinuxFileSystems(mountsFile = '/proc/self/mounts'): Promise<FileSystemReading[]> {
  const seen = new Set<string>();
  const candidates = parseMounts(readFileSync(mountsFile, 'utf8')).filter((entry) => {
    if (!isDiskMount(entry.filesystem, entry.type)) return false;
    // A device mounted twice (bind mounts) is one disk: keep its first mount.
    if (seen.has(entry.filesystem) && entry.filesystem.startsWith('/')) return false;
    seen.add(entry.filesystem);
    return true;
  });
  const readings = await Promise.all(
    candidates.map(async (entry): Promise<FileSystemReading | null> => {
      try {
        const info = await statfs(entry.mount);
        const totalBytes = info.blocks * info.bsize;
        if (totalBytes === 0) return null;
        return {
          mount: entry.mount,
          filesystem: entry.filesystem,
          type: entry.type,
          totalBytes,
          usedBytes: (info.blocks - info.bfree) * info.bsize,
          availableBytes: info.bavail * info.bsize,
          device: await deviceOf(entry.mount),
        };
      } catch {
        return null; // unmounted between the two reads, or not ours to read
      }
    }),
  );
  return readings.filter((reading): reading is FileSystemReading => reading !== null);
}
