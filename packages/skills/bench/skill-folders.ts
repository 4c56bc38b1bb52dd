import { mkdir, mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

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
