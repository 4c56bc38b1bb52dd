import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';

/** A temporary folder with files written from a map of relative path to text; `remove()` deletes it. */
export async function folderWith(
  files: Record<string, string>,
): Promise<{ path: string; remove(): Promise<void> }> {
  const path = await mkdtemp(join(tmpdir(), 'macstats-skills-'));
  for (const [file, text] of Object.entries(files)) {
    await mkdir(dirname(join(path, file)), { recursive: true });
    await writeFile(join(path, file), text);
  }
  return { path, remove: () => rm(path, { recursive: true, force: true }) };
}

/** A SKILL.md with front matter. */
export function skillFile(name: string, description: string, instructions = `Do ${name} well.`): string {
  return `---\nname: ${name}\ndescription: ${description}\n---\n${instructions}\n`;
}

/** An AGENT.md with front matter. */
export function agentFile(fields: Record<string, unknown>, prompt: string): string {
  const lines = Object.entries(fields).map(([key, value]) => `${key}: ${JSON.stringify(value)}`);
  return `---\n${lines.join('\n')}\n---\n${prompt}\n`;
}
