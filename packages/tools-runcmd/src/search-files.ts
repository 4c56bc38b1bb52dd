import type { Dirent, Stats } from 'node:fs';
import { lstat, readdir } from 'node:fs/promises';
import { isDeniedName } from './denied-names.js';
import type { ResolvedPath } from './resolve-path.js';

/** Limits and policy of a recursive search. */
export interface SearchLimits {
  maxFiles: number;
  maxDepth: number;
  allowHardLinks: boolean;
  deniedNames: readonly string[];
}

/** What a recursive search found to read, and what it left out. */
export interface SearchFiles {
  files: ResolvedPath[];
  skippedSymlinks: number;
  skippedHardLinks: number;
  skippedSpecial: number;
  skippedUnreadable: number;
  skippedDenied: number;
  /** True when the file limit was reached. */
  tooMany: boolean;
}

/**
 * Lists the regular files below already-checked folders, as `grep -r` would, so that grep itself
 * never recurses. Denied names are skipped; symbolic links met on the way are skipped (GNU `grep -r` skips them too; BSD
 * grep's behaviour has varied by version), as are devices, pipes, sockets and, unless allowed,
 * files with several hard links. Entries are visited in name order, so output is stable.
 */
export async function listSearchFiles(
  folders: readonly ResolvedPath[],
  limits: SearchLimits,
): Promise<SearchFiles> {
  const found: SearchFiles = {
    files: [],
    skippedSymlinks: 0,
    skippedHardLinks: 0,
    skippedSpecial: 0,
    skippedUnreadable: 0,
    skippedDenied: 0,
    tooMany: false,
  };
  for (const folder of folders) {
    await walk(folder.path, 0, limits, found);
    if (found.tooMany) break;
  }
  return found;
}

async function walk(folder: string, depth: number, limits: SearchLimits, found: SearchFiles): Promise<void> {
  let entries: Dirent[];
  try {
    entries = await readdir(folder, { withFileTypes: true });
  } catch {
    found.skippedUnreadable++;
    return;
  }
  entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  const pathOf = (name: string) => (folder.endsWith('/') ? `${folder}${name}` : `${folder}/${name}`);
  let fileStats: Array<Stats | undefined> = [];
  for (const [index, entry] of entries.entries()) {
    // Files are looked at a batch at a time, so a huge folder costs no more than the limit.
    if (index % STAT_BATCH === 0)
      fileStats = await statFiles(entries.slice(index, index + STAT_BATCH), pathOf);
    const path = pathOf(entry.name);
    if (isDeniedName(entry.name, limits.deniedNames)) {
      found.skippedDenied++;
    } else if (entry.isSymbolicLink()) {
      found.skippedSymlinks++;
    } else if (entry.isDirectory()) {
      if (depth + 1 > limits.maxDepth) found.skippedUnreadable++;
      else await walk(path, depth + 1, limits, found);
    } else if (entry.isFile()) {
      const stats = fileStats[index % STAT_BATCH];
      // Checked again on the entry itself: the name may have changed type since readdir.
      if (stats === undefined) found.skippedUnreadable++;
      else if (!stats.isFile()) found.skippedSpecial++;
      else if (stats.nlink > 1 && !limits.allowHardLinks) found.skippedHardLinks++;
      else if (found.files.length >= limits.maxFiles) found.tooMany = true;
      else found.files.push({ path, stats });
    } else {
      found.skippedSpecial++;
    }
    if (found.tooMany) return;
  }
}

const STAT_BATCH = 64;

function statFiles(
  entries: readonly Dirent[],
  pathOf: (name: string) => string,
): Promise<Array<Stats | undefined>> {
  return Promise.all(
    entries.map((entry) => (entry.isFile() ? lstat(pathOf(entry.name)).catch(() => undefined) : undefined)),
  );
}

/** A line for the model about what a recursive search left out, or undefined when nothing was. */
export function describeSkipped(found: SearchFiles): string | undefined {
  const parts: string[] = [];
  if (found.skippedSymlinks > 0) parts.push(`${found.skippedSymlinks} symbolic link(s)`);
  if (found.skippedHardLinks > 0) parts.push(`${found.skippedHardLinks} hard-linked file(s)`);
  if (found.skippedSpecial > 0) parts.push(`${found.skippedSpecial} device(s), pipe(s) or socket(s)`);
  if (found.skippedDenied > 0) parts.push(`${found.skippedDenied} denied name(s)`);
  if (found.skippedUnreadable > 0) parts.push(`${found.skippedUnreadable} unreadable or too deep folder(s)`);
  return parts.length === 0 ? undefined : `[grep -r skipped ${parts.join(', ')}]`;
}
