import type { Dirent } from 'node:fs';
import { lstat, readdir } from 'node:fs/promises';
import { join, relative, sep } from 'node:path';
import { isBinaryFile } from '@macstats/skills';
import { plural } from '../plural.js';

/** What `skills add` accepts in one folder: a sanity bound, not a context limit (fonts and assets are fine). */
export const SKILL_ADD_LIMITS = { files: 2000, bytes: 100 * 1024 * 1024 } as const;

/** The files a skill folder carries (`.git` left out), their size, and which are binary. */
export interface SkillInventory {
  files: Array<{ path: string; bytes: number; binary: boolean }>;
  bytes: number;
}

/** Reads a skill folder's files; one sentence when it holds a symbolic link or is past the bounds. */
export async function inventory(folder: string): Promise<SkillInventory | { problem: string }> {
  const found: SkillInventory = { files: [], bytes: 0 };
  const walk = async (dir: string): Promise<string | undefined> => {
    const entries: Dirent[] = await readdir(dir, { withFileTypes: true });
    for (const entry of entries.sort((a, b) => (a.name < b.name ? -1 : 1))) {
      const path = join(dir, entry.name);
      const name = relative(folder, path).split(sep).join('/');
      if (entry.isSymbolicLink())
        return `${name} is a symbolic link; copy what it points to into the folder instead`;
      if (entry.isDirectory()) {
        if (entry.name === '.git') continue;
        const problem = await walk(path);
        if (problem) return problem;
      } else if (entry.isFile()) {
        const bytes = (await lstat(path)).size;
        found.files.push({ path: name, bytes, binary: await isBinaryFile(path) });
        found.bytes += bytes;
        if (found.files.length > SKILL_ADD_LIMITS.files || found.bytes > SKILL_ADD_LIMITS.bytes)
          return `it holds more than ${SKILL_ADD_LIMITS.files} files or 100 MB, more than a skill needs`;
      }
    }
    return undefined;
  };
  const problem = await walk(folder);
  return problem ? { problem } : found;
}

const size = (bytes: number) =>
  bytes < 1024
    ? `${bytes} bytes`
    : bytes < 1024 * 1024
      ? `${(bytes / 1024).toFixed(1)} kB`
      : `${(bytes / 1024 / 1024).toFixed(1)} MB`;
const SCRIPT = /\.(?:sh|bash|zsh|py|js|mjs|cjs|ts|rb|pl|ps1|bat|cmd|exe)$|^scripts\//;

/** The lines saying what a skill carries: its files by kind, and its scripts by name (never run). */
export function describeInventory(found: SkillInventory): string[] {
  const binary = found.files.filter((file) => file.binary);
  const scripts = found.files.filter((file) => !file.binary && SCRIPT.test(file.path));
  const lines = [
    `  ${plural(found.files.length, 'file')}, ${size(found.bytes)}: ${plural(found.files.length - binary.length, 'text file')}, ${plural(binary.length, 'binary file')}`,
  ];
  if (binary.length > 0)
    lines.push(
      `  binary (never read into the context): ${binary
        .slice(0, 10)
        .map((file) => file.path)
        .join(', ')}${binary.length > 10 ? ', …' : ''}`,
    );
  lines.push(
    scripts.length > 0
      ? `  scripts (text the model may read; macstats never runs them): ${scripts.map((file) => file.path).join(', ')}`
      : '  scripts: none',
  );
  return lines;
}
