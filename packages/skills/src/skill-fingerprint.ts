import { createHash } from 'node:crypto';
import type { Dirent } from 'node:fs';
import { readdir, readFile } from 'node:fs/promises';
import { join, relative, sep } from 'node:path';

/** Every file of a skill's folder by relative path, each with the SHA-256 of its bytes. */
export type SkillFingerprint = Record<string, string>;

/**
 * The fingerprint of a skill's folder: a SHA-256 per file (fonts and scripts too, hidden files
 * too; `.git` left out), symbolic links by their target text, so any change on disk shows.
 */
export async function fingerprintSkill(folder: string): Promise<SkillFingerprint> {
  const files: SkillFingerprint = {};
  const walk = async (dir: string): Promise<void> => {
    const entries: Dirent[] = await readdir(dir, { withFileTypes: true });
    for (const entry of entries) {
      const path = join(dir, entry.name);
      const name = relative(folder, path).split(sep).join('/');
      if (entry.isDirectory()) {
        if (entry.name !== '.git') await walk(path);
      } else if (entry.isFile())
        files[name] = createHash('sha256')
          .update(await readFile(path))
          .digest('hex');
      else files[name] = 'not a regular file';
    }
  };
  await walk(folder);
  return Object.fromEntries(Object.entries(files).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
}

/** What differs between a pinned fingerprint and the folder as it is now. */
export interface SkillChanges {
  added: string[];
  changed: string[];
  removed: string[];
}

/** The files added, changed and removed since `pinned`; all empty when the folder is as pinned. */
export function compareFingerprints(pinned: SkillFingerprint, now: SkillFingerprint): SkillChanges {
  const added = Object.keys(now).filter((file) => !(file in pinned));
  const removed = Object.keys(pinned).filter((file) => !(file in now));
  const changed = Object.keys(now).filter((file) => file in pinned && pinned[file] !== now[file]);
  return { added, changed, removed };
}

/** True when nothing was added, changed or removed. */
export function unchanged(changes: SkillChanges): boolean {
  return changes.added.length + changes.changed.length + changes.removed.length === 0;
}

/** `2 files changed (SKILL.md, scripts/run.sh), 1 added (x.md)`: what a user reads of the changes. */
export function describeChanges(changes: SkillChanges): string {
  const part = (files: string[], what: string) =>
    files.length === 0
      ? []
      : [
          `${files.length} file${files.length === 1 ? '' : 's'} ${what} (${files.slice(0, 5).join(', ')}${files.length > 5 ? ', …' : ''})`,
        ];
  return [
    ...part(changes.changed, 'changed'),
    ...part(changes.added, 'added'),
    ...part(changes.removed, 'removed'),
  ].join(', ');
}
