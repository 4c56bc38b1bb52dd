import type { Stats } from 'node:fs';
import { realpath, stat } from 'node:fs/promises';
import { basename, dirname, resolve } from 'node:path';
import { findDeniedPart } from './denied-names.js';
import { showPart } from './display.js';
import type { Word } from './split-arguments.js';

/** The directory every path must resolve into. */
export interface Sandbox {
  /** The base with every symbolic link resolved. */
  realBase: string;
  /** The base as messages show it (`~/.mac-stats`). */
  shownBase: string;
  allowHardLinks: boolean;
  deniedNames: readonly string[];
}

/** What an operand must be: a readable regular file, a file or folder to search, or anything `ls` may list. */
export type OperandKind = 'file' | 'file-or-folder' | 'entry';

/** A checked path and the identity of what it named when it was checked. */
export interface ResolvedPath {
  path: string;
  stats: Stats;
}

/** A checked path, or one sentence saying why it was refused. */
export type ResolveResult = { ok: true; resolved: ResolvedPath } | { ok: false; error: string };

/** True when `path` (a real path) is the base or lies below it. */
export function isInside(path: string, realBase: string): boolean {
  if (path === realBase) return true;
  return path.startsWith(realBase.endsWith('/') ? realBase : `${realBase}/`);
}

/**
 * Resolves one operand to its real path, with every symbolic link followed the way the kernel
 * follows them (`link/..` is the parent of the link's target, not the folder holding the link),
 * and checks that it lies inside the real base. A relative operand, with or without a `/`, is
 * taken relative to the base, which is the command's working directory.
 */
export async function resolveOperand(
  word: Word,
  sandbox: Sandbox,
  kind: OperandKind,
): Promise<ResolveResult> {
  const operand = word.value;
  const shown = showPart(word.source);
  if (operand === '') return refuse(`An empty path is not allowed: ${shown}`);
  if (operand === '-') return refuse('Standard input is not available; name a file under the base: -');
  // Joined as text, not with path.join, which would fold `link/..` before the kernel sees it.
  const candidate = operand.startsWith('/') ? operand : `${sandbox.realBase}/${operand}`;
  let real: string;
  try {
    real = await realpath(candidate);
  } catch (error) {
    return refuseUnresolved(error, candidate, word, sandbox);
  }
  if (!isInside(real, sandbox.realBase)) return notAllowed(sandbox, shown);
  const denied = findDeniedPart(real.slice(sandbox.realBase.length).replace(/^\//, ''), sandbox.deniedNames);
  if (denied !== undefined)
    return refuse(`Path not allowed (${denied} may hold secrets and is never read): ${shown}`);
  let stats: Stats;
  try {
    stats = await stat(real);
  } catch {
    return refuse(`Cannot read: ${shown}`);
  }
  if (kind !== 'entry') {
    if (stats.isDirectory()) {
      if (kind === 'file') return refuse(`Is a folder, not a file${folderHint(kind)}: ${shown}`);
    } else if (!stats.isFile()) {
      return refuse(`Not a regular file (devices, pipes and sockets are never read): ${shown}`);
    }
    if (stats.isFile() && stats.nlink > 1 && !sandbox.allowHardLinks) {
      return refuse(
        `Path not allowed (the file has ${stats.nlink} hard links, and another of its names may lie outside ${sandbox.shownBase}): ${shown}`,
      );
    }
  }
  return { ok: true, resolved: { path: real, stats } };
}

async function refuseUnresolved(error: unknown, candidate: string, word: Word, sandbox: Sandbox) {
  const code = (error as NodeJS.ErrnoException).code;
  const shown = showPart(word.source);
  if (code === 'ELOOP') return refuse(`Path not allowed (a loop of symbolic links): ${shown}`);
  if (code === 'ENAMETOOLONG') return refuse(`Path too long: ${shown}`);
  if (code === 'EACCES') return refuse(`Permission denied: ${shown}`);
  if (code !== 'ENOENT' && code !== 'ENOTDIR')
    return refuse(`Cannot resolve path (${code ?? 'error'}): ${shown}`);
  // Say "not allowed" for a missing path outside the base too, so refusals tell nothing about
  // what exists out there.
  const nearest = await nearestExisting(candidate);
  if (nearest === undefined || !isInside(nearest, sandbox.realBase)) return notAllowed(sandbox, shown);
  const hint = word.unquotedGlob ? ' (wildcards are not expanded: no shell runs the command)' : '';
  return refuse(`No such file or folder under ${sandbox.shownBase}${hint}: ${shown}`);
}

/** The real path the missing `candidate` would have: its deepest existing ancestor plus the rest. */
async function nearestExisting(candidate: string): Promise<string | undefined> {
  const missing: string[] = [];
  let current = candidate;
  for (;;) {
    try {
      return resolve(await realpath(current), ...missing);
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if ((code !== 'ENOENT' && code !== 'ENOTDIR') || dirname(current) === current) return undefined;
      missing.unshift(basename(current));
      current = dirname(current);
    }
  }
}

function folderHint(kind: OperandKind): string {
  return kind === 'file' ? ' (list it with ls, or search it with grep -r)' : '';
}

function notAllowed(sandbox: Sandbox, shown: string): ResolveResult {
  return refuse(`Path not allowed (must be under ${sandbox.shownBase}): ${shown}`);
}

function refuse(error: string): ResolveResult {
  return { ok: false, error };
}
