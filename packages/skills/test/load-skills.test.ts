import { mkdir, symlink } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { loadSkills } from '../src/index.js';
import { folderWith, skillFile } from './folders.js';

let folder: Awaited<ReturnType<typeof folderWith>> | undefined;
afterEach(async () => {
  await folder?.remove();
});

describe('loadSkills', () => {
  it('reads a skill: its name, description and instructions', async () => {
    folder = await folderWith({
      'release-notes/SKILL.md': skillFile('release-notes', 'Summarises release notes.'),
    });
    const { skills, problems } = await loadSkills(folder.path);
    expect(problems).toEqual([]);
    expect(skills).toEqual([
      {
        name: 'release-notes',
        description: 'Summarises release notes.',
        instructions: 'Do release-notes well.',
        folder: join(folder.path, 'release-notes'),
      },
    ]);
  });

  it('skips each broken skill with one sentence, keeps the good ones however long, and loads a misnamed one under the folder name', async () => {
    folder = await folderWith({
      'good/SKILL.md': skillFile('good', 'Works.'),
      'no-front/SKILL.md': 'Just instructions.',
      'wrong-name/SKILL.md': skillFile('other', 'Named wrongly.'),
      'no-description/SKILL.md': '---\nname: no-description\n---\nx',
      'long/SKILL.md': skillFile('long', 'Long.', 'x'.repeat(30_000)),
      'bad-yaml/SKILL.md': '---\nname: [bad\n---\nx',
      'empty/README.md': 'no SKILL.md here',
      'Upper_Case/SKILL.md': skillFile('Upper_Case', 'Bad folder name.'),
    });
    const { skills, problems } = await loadSkills(folder.path, { label: 'skills' });
    expect(skills.map((skill) => skill.name)).toEqual(['good', 'long', 'wrong-name']);
    expect(problems).toEqual([
      "The skill skills/Upper_Case is skipped: a skill's folder is named in lowercase letters, digits and single hyphens (at most 64).",
      expect.stringMatching(
        /^The skill skills\/bad-yaml has a SKILL.md that has front matter that is not valid YAML \(.*\), so it is skipped\.$/,
      ),
      'The skill skills/empty has no SKILL.md, so it is skipped.',
      'The skill skills/no-description has no description in its SKILL.md front matter, so it is skipped.',
      'The skill skills/no-front has a SKILL.md that has no front matter (it must start with a --- line, then YAML, then ---), so it is skipped.',
      'The skill skills/wrong-name is named "other" in its SKILL.md, not as its folder; it is loaded as wrong-name (name the folder other to match).',
    ]);
  });

  it('does not follow a skill folder that is a symbolic link', async () => {
    folder = await folderWith({ 'elsewhere/real/SKILL.md': skillFile('real', 'Real.') });
    await mkdir(join(folder.path, 'skills'));
    await symlink(join(folder.path, 'elsewhere', 'real'), join(folder.path, 'skills', 'real'));
    const { skills, problems } = await loadSkills(join(folder.path, 'skills'), { label: 'skills' });
    expect(skills).toEqual([]);
    expect(problems).toEqual([
      'The skill skills/real is a symbolic link, which is not followed, so it is skipped; copy the folder in instead.',
    ]);
  });

  it('finds no skills, and no problem, in a folder that does not exist', async () => {
    expect(await loadSkills('/nonexistent/macstats/skills')).toEqual({ skills: [], problems: [] });
  });
});
