import { appendFile, chmod, lstat, mkdir, open, readdir, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import writeFileAtomic from 'write-file-atomic';

/**
 * The mode of every folder under the data folder (`MACSTATS_HOME`): its owner's only. The data
 * folder holds instructions, tool results, replies, tokens and logs; no other user of the machine
 * may list or read them.
 */
export const PRIVATE_DIR_MODE = 0o700;
/** The mode of every file under the data folder: read and written by its owner only. */
export const PRIVATE_FILE_MODE = 0o600;

/**
 * Creates `dir` and any missing folder above it with mode 0700. Folders that exist keep their
 * mode (`doctor` tightens those, see {@link tightenPrivateTree}).
 */
export async function ensurePrivateDir(dir: string): Promise<void> {
  await mkdir(dir, { recursive: true, mode: PRIVATE_DIR_MODE });
}

/**
 * Writes `file` whole and atomically (a temporary file renamed over it), mode 0600, creating its
 * folder 0700 when missing. An interrupted write leaves the old content.
 */
export async function writePrivateFile(file: string, data: string | Uint8Array): Promise<void> {
  await ensurePrivateDir(dirname(file));
  await writeFileAtomic(file, typeof data === 'string' ? data : Buffer.from(data), {
    mode: PRIVATE_FILE_MODE,
  });
}

/** Appends to `file` (created 0600, its folder 0700, when missing). */
export async function appendPrivateFile(file: string, data: string): Promise<void> {
  await ensurePrivateDir(dirname(file));
  await appendFile(file, data, { mode: PRIVATE_FILE_MODE });
}

/**
 * Creates `file` 0600 only if it does not exist (a lock, a draft linked into place); throws
 * `EEXIST` when it does. `data` defaults to empty.
 */
export async function createPrivateFile(file: string, data = ''): Promise<void> {
  const handle = await open(file, 'wx', PRIVATE_FILE_MODE);
  try {
    if (data) await writeFile(handle, data);
  } finally {
    await handle.close();
  }
}

/** A path under the data folder that others may reach, as {@link findLoosePaths} reports it. */
export interface LoosePath {
  path: string;
  /** Its permission bits, such as `0o644`. */
  mode: number;
  kind: 'folder' | 'file';
}

/**
 * Every folder and file under `root` (and `root` itself) with any group or world permission.
 * Symbolic links are not followed: a link's target is not the data folder's.
 */
export async function findLoosePaths(root: string): Promise<LoosePath[]> {
  const found: LoosePath[] = [];
  const visit = async (path: string): Promise<void> => {
    const info = await lstat(path).catch(() => undefined);
    if (!info || info.isSymbolicLink()) return;
    const mode = info.mode & 0o777;
    const kind = info.isDirectory() ? 'folder' : 'file';
    if ((mode & 0o077) !== 0) found.push({ path, mode, kind });
    if (!info.isDirectory()) return;
    for (const name of await readdir(path).catch(() => [] as string[])) await visit(join(path, name));
  };
  await visit(root);
  return found;
}

/**
 * Makes every folder under `root` 0700 and every file 0600 (keeping a file's owner-execute bit,
 * as a skill's script needs), and returns what it changed. Throws the first `chmod` error (a
 * file of another owner), after changing what it could.
 */
export async function tightenPrivateTree(root: string): Promise<LoosePath[]> {
  const loose = await findLoosePaths(root);
  let failure: unknown;
  for (const entry of loose) {
    const target = entry.kind === 'folder' ? PRIVATE_DIR_MODE : PRIVATE_FILE_MODE | (entry.mode & 0o100);
    await chmod(entry.path, target).catch((error: unknown) => {
      failure ??= error;
    });
  }
  if (failure !== undefined) throw failure;
  return loose;
}
