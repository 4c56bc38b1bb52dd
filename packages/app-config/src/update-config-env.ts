import { readFile } from 'node:fs/promises';
import { writePrivateFile } from '@macstats/core/internal';
import { parseEnvFile } from './parse-env-file.js';

/**
 * Sets keys in a `.config.env` file, keeping every other line (comments, secrets, order) as it
 * is: an existing `KEY=` line is replaced in place, a new key is appended. `undefined` removes
 * the key. Written atomically (a temporary file renamed over it, so an interrupted write leaves
 * the old file whole) with owner-only permissions, since the file may hold tokens; a folder it
 * creates is owner-only too. A value holding a line break is refused: it would add a line.
 *
 * @example
 * await updateConfigEnv(join(home, CONFIG_FILE_NAME), { OLLAMA_MODEL: 'qwen2.5:7b', BRAVE_API_KEY: undefined });
 */
export async function updateConfigEnv(
  path: string,
  values: Record<string, string | undefined>,
): Promise<void> {
  for (const [key, value] of Object.entries(values)) {
    if (value !== undefined && /[\r\n]/.test(value))
      throw new Error(`${key}: a value in ${path} must be one line`);
  }
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
    if (value !== undefined) kept.push(envLine(key, value));
  }
  for (const [key, value] of pending) if (value !== undefined) kept.push(envLine(key, value));
  await writePrivateFile(path, `${kept.join('\n')}\n`);
}

/** `KEY=value`, or the value double-quoted when the plain line would read back otherwise (` #`, quotes, edges). */
function envLine(key: string, value: string): string {
  const plain = `${key}=${value}`;
  if (parseEnvFile(plain).values[key] === value) return plain;
  return `${key}="${value.replace(/[\\"$]/g, (char) => `\\${char}`)}"`;
}
