import type { Dirent } from 'node:fs';
import { lstat, open, readdir, readFile } from 'node:fs/promises';
import { isAbsolute, join, relative, sep } from 'node:path';
import { SKILLS_DEFAULTS } from './defaults.js';

/** What reading a skill's file gave: its text, the files of a folder, or one sentence why not. */
export type SkillFileRead = { text: string } | { folder: SkillFiles } | { problem: string };

/** Files of a skill's folder, as the model is told of them. */
export interface SkillFiles {
  /** Relative paths, sorted; a binary file is followed by ` (binary, not readable)`. */
  files: string[];
  /** Files found in all; more than `files.length` when the list was cut. */
  total: number;
}

/** True when the first bytes of a file hold a NUL byte: a font, an image, an archive. */
export async function isBinaryFile(path: string): Promise<boolean> {
  const handle = await open(path, 'r');
  try {
    const buffer = Buffer.alloc(8000);
    const { bytesRead } = await handle.read(buffer, 0, buffer.length, 0);
    return buffer.subarray(0, bytesRead).includes(0);
  } finally {
    await handle.close();
  }
}

/**
 * Reads a file of a skill's folder for the model, confined to that folder: an absolute path, a
 * `..` segment or a symbolic link anywhere on the way is refused with one sentence, and so is a
 * binary file (named as such) or one over `SKILLS_DEFAULTS.maxReadableBytes`. A folder gives its
 * files. The file is read, never run; a long one is given in parts by the caller.
 */
export async function readSkillFile(folder: string, file: string): Promise<SkillFileRead> {
  const wanted = file.trim().replace(/^\.\//, '');
  const parts = wanted.split(/[\\/]+/).filter((part) => part !== '' && part !== '.');
  if (wanted === '' || isAbsolute(wanted) || /^[a-z]:/i.test(wanted) || parts.includes('..'))
    return { problem: `${file} is not a path inside the skill's folder.` };
  const name = parts.join('/');
  let path = folder;
  for (const [index, part] of parts.entries()) {
    path = join(path, part);
    const stats = await lstat(path).catch(() => undefined);
    if (!stats) return { problem: `The skill has no file ${name}.` };
    if (stats.isSymbolicLink())
      return { problem: `${name} goes through a symbolic link, which is not followed.` };
    const last = index === parts.length - 1;
    if (!last && !stats.isDirectory()) return { problem: `The skill has no file ${name}.` };
    if (last && stats.isDirectory())
      return { folder: await listSkillFiles(folder, SKILLS_DEFAULTS.listedFiles, name) };
    if (last && !stats.isFile()) return { problem: `${name} is not a file.` };
    if (last && stats.size > SKILLS_DEFAULTS.maxReadableBytes)
      return { problem: `${name} is ${stats.size} bytes, too large to read as text.` };
  }
  const bytes = await readFile(path);
  if (bytes.includes(0)) return { problem: `${name} is a binary file (not text), so it cannot be read.` };
  return { text: bytes.toString('utf8') };
}

/**
 * The files of a skill's folder (or of `under`, one of its folders), not following links,
 * relative and sorted, at most `limit` named; binary files are marked. `SKILL.md` is left out.
 */
export async function listSkillFiles(folder: string, limit: number, under = ''): Promise<SkillFiles> {
  const files: string[] = [];
  let total = 0;
  const walk = async (dir: string, depth: number): Promise<void> => {
    if (depth > 6) return;
    const entries: Dirent[] = await readdir(dir, { withFileTypes: true }).catch(() => []);
    for (const entry of entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0))) {
      if (entry.name.startsWith('.')) continue;
      const path = join(dir, entry.name);
      if (entry.isDirectory()) await walk(path, depth + 1);
      else if (entry.isFile() && !(path === join(folder, 'SKILL.md'))) {
        total++;
        if (files.length >= limit) continue;
        const name = relative(folder, path).split(sep).join('/');
        files.push((await isBinaryFile(path).catch(() => false)) ? `${name} (binary, not readable)` : name);
      }
    }
  };
  await walk(under ? join(folder, under) : folder, 0);
  return { files, total };
}

/** The sentence naming a skill's files, saying when the list is cut and how to see the rest. */
export function describeSkillFiles(skill: string, listed: SkillFiles, under = ''): string {
  if (listed.total === 0) return under ? `${under}/ holds no files.` : '';
  const where = under ? `Files in ${under}/` : 'Files of this skill';
  const cut =
    listed.total > listed.files.length
      ? ` (${listed.files.length} of ${listed.total} shown; SKILL: ${skill} <folder>/ lists one folder)`
      : '';
  return `${where} (read one with SKILL: ${skill} <file>)${cut}: ${listed.files.join(', ')}`;
}
