import { readFile } from 'node:fs/promises';

/**
 * A text file's contents, or `undefined` when it does not exist (yet): the one "missing is
 * empty" rule of the stores that keep state in files. Any other failure is thrown.
 */
export async function readTextIfPresent(file: string): Promise<string | undefined> {
  try {
    return await readFile(file, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
}
