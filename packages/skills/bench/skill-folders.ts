import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, readdir, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { loadSkills, type Skill } from '../src/index.js';

const TOPICS = [
  'release-notes',
  'weekly-report',
  'disk-cleanup',
  'backup-check',
  'meeting-notes',
  'travel-plan',
  'recipe-scaler',
  'log-triage',
  'price-watch',
  'news-digest',
  'haiku',
  'email-draft',
  'todo-review',
  'server-health',
  'link-check',
  'reading-list',
  'budget-summary',
  'code-review',
  'incident-report',
  'translation',
];

/**
 * Twenty skills as a user might install them: each a folder with a SKILL.md whose description is
 * about two hundred characters (longer than the prompt shows) and a few hundred words of instructions.
 */
export async function twentySkills(): Promise<string> {
  const folder = await mkdtemp(join(tmpdir(), 'macstats-skills-bench-'));
  for (const name of TOPICS) {
    const description =
      `Use for ${name.replace(/-/g, ' ')} requests: gathers what it needs with the tools, then writes ` +
      'a short, structured result the user can act on, with sources and the next steps named clearly.';
    const instructions = Array.from(
      { length: 40 },
      (_, line) => `${line + 1}. Step ${line + 1} of ${name}: do it carefully.`,
    ).join('\n');
    await mkdir(join(folder, name));
    await writeFile(
      join(folder, name, 'SKILL.md'),
      `---\nname: ${name}\ndescription: ${JSON.stringify(description)}\n---\n${instructions}\n`,
    );
  }
  return folder;
}

/** The real skills of `../shared/corpus/real-skills` beside the repository; none when it is absent. */
export async function realSkills(): Promise<Skill[]> {
  const corpus = fileURLToPath(new URL('../../../../shared/corpus/real-skills/', import.meta.url));
  if (!existsSync(corpus)) return [];
  const collections = (await readdir(corpus, { withFileTypes: true })).filter((entry) => entry.isDirectory());
  const loaded = await Promise.all(collections.map((entry) => loadSkills(join(corpus, entry.name))));
  return loaded.flatMap((found) => found.skills);
}
