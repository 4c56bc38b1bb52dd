import { mkdir, readFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import writeFileAtomic from 'write-file-atomic';

/**
 * Sets keys in a `.config.env` file, keeping every other line (comments, secrets, order) as it
 * is: an existing `KEY=` line is replaced in place, a new key is appended. `undefined` removes
 * the key. Written atomically with owner-only permissions, since the file may hold tokens.
 */
export async function updateConfigEnv(
  path: string,
  values: Record<string, string | undefined>,
): Promise<void> {
  let text = '';
  try {
    text = await readFile(path, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
  }
  const lines = text === '' ? [] : text.replace(/\n$/, '').split('\n');
  const pending = new Map(Object.entries(values));
  const kept: string[] = [];
  for (const line of lines) {
    const match = /^\s*(?:export\s+)?([A-Za-z_][A-Za-z0-9_]*)\s*=/.exec(line);
    const key = match?.[1];
    if (key === undefined || !Object.hasOwn(values, key)) {
      kept.push(line);
      continue;
    }
    // The first line of a key takes the new value; later duplicates go, so no reader sees an old one.
    if (!pending.has(key)) continue;
    const value = pending.get(key);
    pending.delete(key);
    if (value !== undefined) kept.push(`${key}=${value}`);
  }
  for (const [key, value] of pending) if (value !== undefined) kept.push(`${key}=${value}`);
  await mkdir(dirname(path), { recursive: true });
  await writeFileAtomic(path, `${kept.join('\n')}\n`, { mode: 0o600 });
}
