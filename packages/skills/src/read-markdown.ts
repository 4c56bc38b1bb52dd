import { lstat, readFile } from 'node:fs/promises';
import { join } from 'node:path';

/**
 * Reads `<folder>/<file>` when it is a regular file (not a symbolic link) of at most `maxChars`;
 * otherwise one sentence saying why not, without the folder's name.
 */
export async function readMarkdown(
  folder: string,
  file: string,
  maxChars: number,
): Promise<{ text: string } | { problem: string }> {
  const path = join(folder, file);
  let stats: Awaited<ReturnType<typeof lstat>>;
  try {
    stats = await lstat(path);
  } catch {
    return { problem: `has no ${file}` };
  }
  if (stats.isSymbolicLink()) return { problem: `has a ${file} that is a symbolic link, which is not read` };
  if (!stats.isFile()) return { problem: `has a ${file} that is not a file` };
  // Bytes are at least as many as characters: a file this large cannot fit.
  if (stats.size > maxChars * 4) return { problem: `has a ${file} longer than ${maxChars} characters` };
  const text = await readFile(path, 'utf8');
  if (text.length > maxChars) return { problem: `has a ${file} longer than ${maxChars} characters` };
  return { text };
}
