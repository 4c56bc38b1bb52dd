import { constants } from 'node:fs';
import { type FileHandle, open } from 'node:fs/promises';
import type { ResolvedPath } from './resolve-path.js';

/** An open file that is the very file that was checked, or why it is not. */
export type PinResult = { ok: true; handle: FileHandle } | { ok: false; error: string };

/**
 * Opens a checked regular file and makes sure the open file is the one that was checked (same
 * device and inode, still one link), so a symlink or file swapped in after the check cannot
 * change what is read. `O_NOFOLLOW` refuses a symlink put in the file's place, `O_NONBLOCK` keeps
 * a pipe put there from blocking the open. The program then reads the handle as its standard
 * input, so it never opens the path itself.
 */
export async function openPinned(checked: ResolvedPath, allowHardLinks: boolean): Promise<PinResult> {
  let handle: FileHandle;
  try {
    handle = await open(checked.path, constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK);
  } catch {
    return changed(checked.path);
  }
  const stats = await handle.stat();
  const same = stats.isFile() && stats.dev === checked.stats.dev && stats.ino === checked.stats.ino;
  if (!same || (stats.nlink > 1 && !allowHardLinks)) {
    await handle.close();
    return changed(checked.path);
  }
  return { ok: true, handle };
}

function changed(path: string): PinResult {
  return { ok: false, error: `The file changed between the check and the run, so it was not read: ${path}` };
}
