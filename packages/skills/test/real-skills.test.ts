import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createSkillTool, loadSkills, SKILLS_DEFAULTS, type Skill } from '../src/index.js';
import { loadRealSkills, REAL_SKILLS_DIR } from './real-skills-corpus.js';

const corpus = loadRealSkills();
if (!corpus)
  console.warn(
    `real-skills tests skipped: no corpus at ${REAL_SKILLS_DIR} (../shared beside the repository).`,
  );
const collections = [...new Set((corpus ?? []).map((skill) => skill.collection))];
const footer = /\n\n\[Lines [^\]]*\]$/;

/** Loads every collection of the corpus, as if each were a user's skills folder. */
async function loadCorpus(): Promise<{ skills: Skill[]; problems: string[] }> {
  const all = await Promise.all(
    collections.map((collection) => loadSkills(join(REAL_SKILLS_DIR, collection), { label: collection })),
  );
  return { skills: all.flatMap((found) => found.skills), problems: all.flatMap((found) => found.problems) };
}

/** A text read the way the model reads it: the first part, then each next part its footer names. */
async function readInParts(
  tool: ReturnType<typeof createSkillTool>,
  first: string,
): Promise<{ text: string; longest: number; parts: number }> {
  const signal = new AbortController().signal;
  const texts: string[] = [];
  let longest = 0;
  let argument: string | undefined = first;
  while (argument !== undefined) {
    const result = await tool.run(argument, { signal });
    if (typeof result !== 'string') throw new Error(`${first}: ${result.text}`);
    longest = Math.max(longest, result.length);
    texts.push(result.replace(/\n\nFiles of this skill[\s\S]*$/, '').replace(footer, ''));
    argument = /Next part: SKILL: (.+) from line (\d+)\]/.exec(result)?.slice(1).join(' from line ');
  }
  return { text: texts.join('\n'), longest, parts: texts.length };
}

describe.skipIf(!corpus)('the real skills people share (../shared/corpus/real-skills)', () => {
  it('loads every skill of the corpus; the one named unlike its folder loads under the folder name, with a sentence', async () => {
    const { skills, problems } = await loadCorpus();
    expect(skills.map((skill) => skill.name).sort()).toEqual(
      (corpus ?? []).map((skill) => skill.folder).sort(),
    );
    const invalid = (corpus ?? []).filter((skill) => !skill.specValid);
    expect(problems).toHaveLength(invalid.length);
    for (const skill of invalid)
      expect(problems.join('\n')).toContain(`/${skill.folder} is named "${skill.name}"`);
    for (const skill of corpus ?? [])
      expect(skills.find((loaded) => loaded.name === skill.folder)?.description).toBe(skill.description);
  });

  it('gives every SKILL.md whole, in parts within the tool-output budget when long', async () => {
    const { skills } = await loadCorpus();
    const tool = createSkillTool({ skills });
    for (const skill of skills) {
      const read = await readInParts(tool, skill.name);
      expect(read.text, skill.name).toBe(skill.instructions);
      expect(read.longest, skill.name).toBeLessThanOrEqual(12_000);
      if (skill.instructions.length > SKILLS_DEFAULTS.partChars)
        expect(read.parts, skill.name).toBeGreaterThan(1);
    }
  });

  it('reads every file a SKILL.md names, whole, in parts when long', async () => {
    const { skills } = await loadCorpus();
    const tool = createSkillTool({ skills });
    let files = 0;
    for (const real of corpus ?? []) {
      const skill = skills.find((loaded) => loaded.name === real.folder);
      for (const file of Object.keys(real.referencedFiles)) {
        const read = await readInParts(tool, `${real.folder} ${file}`);
        expect(read.text, `${real.folder}/${file}`).toBe(
          await readFile(join(skill?.folder ?? '', file), 'utf8'),
        );
        expect(read.longest).toBeLessThanOrEqual(12_000);
        files++;
      }
    }
    expect(files).toBe(
      (corpus ?? []).reduce((sum, skill) => sum + Object.keys(skill.referencedFiles).length, 0),
    );
  });

  it('names every file of a skill when its instructions are loaded', async () => {
    const { skills } = await loadCorpus();
    const tool = createSkillTool({ skills });
    for (const real of corpus ?? []) {
      const first = String(await tool.run(real.folder, { signal: new AbortController().signal }));
      for (const file of real.files) expect(first, `${real.folder}: ${file}`).toContain(file);
    }
  });
});
