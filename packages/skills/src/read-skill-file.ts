import { lstat, readdir, readFile } from 'node:fs/promises';
import { isAbsolute, join, relative, sep } from 'node:path';

/**
 * Reads a file of a skill's folder for the model, confined to that folder: an absolute path, a
 * `..` segment, a symbolic link anywhere on the way, a folder, a file larger than `maxChars` or a
 * binary file is refused with one sentence. The file is read, never run.
 */
export async function readSkillFile(
  folder: string,
  file: string,
  maxChars: number,
): Promise<{ text: string } | { problem: string }> {
  const wanted = file.trim().replace(/^\.\//, '');
  const parts = wanted.split(/[\\/]+/).filter((part) => part !== '' && part !== '.');
  if (wanted === '' || isAbsolute(wanted) || /^[a-z]:/i.test(wanted) || parts.includes('..'))
    return { problem: `${file} is not a path inside the skill's folder.` };
  let path = folder;
  for (const [index, part] of parts.entries()) {
    path = join(path, part);
    const stats = await lstat(path).catch(() => undefined);
    if (!stats) return { problem: `The skill has no file ${parts.join('/')}.` };
    if (stats.isSymbolicLink())
      return { problem: `${parts.join('/')} goes through a symbolic link, which is not followed.` };
    const last = index === parts.length - 1;
    if (!last && !stats.isDirectory()) return { problem: `The skill has no file ${parts.join('/')}.` };
    if (last && !stats.isFile()) return { problem: `${parts.join('/')} is not a file.` };
    if (last && stats.size > maxChars * 4)
      return { problem: `${parts.join('/')} is longer than ${maxChars} characters, too long to read.` };
  }
  const bytes = await readFile(path);
  if (bytes.includes(0)) return { problem: `${parts.join('/')} is not a text file.` };
  const text = bytes.toString('utf8');
  if (text.length > maxChars)
    return { problem: `${parts.join('/')} is longer than ${maxChars} characters, too long to read.` };
  return { text };
}

/** The files of a skill's folder (not following links), relative and sorted, at most `limit`. */
export async function listSkillFiles(folder: string, limit: number): Promise<string[]> {
  const found: string[] = [];
  const walk = async (dir: string, depth: number): Promise<void> => {
    if (depth > 4 || found.length >= limit) return;
    const entries = await readdir(dir, { withFileTypes: true }).catch(() => []);
    for (const entry of entries.sort((a, b) => a.name.localeCompare(b.name))) {
      if (found.length >= limit) return;
      if (entry.name.startsWith('.')) continue;
      const path = join(dir, entry.name);
      if (entry.isDirectory()) await walk(path, depth + 1);
      else if (entry.isFile() && !(depth === 0 && entry.name === 'SKILL.md'))
        found.push(relative(folder, path).split(sep).join('/'));
    }
  };
  await walk(folder, 0);
  return found;
}
