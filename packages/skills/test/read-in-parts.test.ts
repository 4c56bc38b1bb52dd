import { describe, expect, it } from 'vitest';
import { createSkillTool, loadSkills } from '../src/index.js';
import { folderWith, skillFile } from './folders.js';

const numbered = (count: number, width = 60) =>
  Array.from(
    { length: count },
    (_, line) => `${String(line + 1).padStart(4, '0')} ${'x'.repeat(width)}`,
  ).join('\n');

/** Every part of a text, asked for as the model is told to ask (following each footer's line). */
async function readAll(run: (argument: string) => Promise<unknown>, first: string): Promise<string[]> {
  const parts: string[] = [];
  let argument: string | undefined = first;
  while (argument !== undefined && parts.length < 100) {
    const text: string = String(await run(argument));
    parts.push(text);
    argument = /Next part: SKILL: (.+) from line (\d+)\]/.exec(text)?.slice(1).join(' from line ');
  }
  return parts;
}

describe('a long SKILL.md or file', () => {
  it('loads a SKILL.md of any length and gives it in parts, each saying how to ask for the next', async () => {
    const folder = await folderWith({ 'long/SKILL.md': skillFile('long', 'A long skill.', numbered(700)) });
    try {
      const { skills } = await loadSkills(folder.path);
      const tool = createSkillTool({ skills, partChars: 9000 });
      const signal = new AbortController().signal;
      const parts = await readAll((argument) => tool.run(argument, { signal }) as Promise<unknown>, 'long');
      expect(parts.length).toBeGreaterThan(3);
      expect(parts[0]).toMatch(/\[Lines 1-\d+ of 700\. Next part: SKILL: long from line \d+\]$/);
      expect(parts.at(-1)).toMatch(/\[Lines \d+-700 of 700\. This is the end\.\]$/);
      for (const part of parts) expect(part.length).toBeLessThanOrEqual(9000 + 120);
      const body = parts.map((part) => part.replace(/\n\n\[Lines [^\]]*\]$/, '')).join('\n');
      expect(body).toBe(numbered(700));
    } finally {
      await folder.remove();
    }
  });

  it('gives a long file of the folder in parts too', async () => {
    const folder = await folderWith({
      'guide/SKILL.md': skillFile('guide', 'Guides.', 'Read reference/big.md.'),
      'guide/reference/big.md': numbered(500, 100),
    });
    try {
      const tool = createSkillTool({ skills: (await loadSkills(folder.path)).skills });
      const signal = new AbortController().signal;
      const parts = await readAll(
        (argument) => tool.run(argument, { signal }) as Promise<unknown>,
        'guide reference/big.md',
      );
      expect(parts[0]).toContain('Next part: SKILL: guide reference/big.md from line ');
      expect(parts.map((part) => part.replace(/\n\n\[Lines [^\]]*\]$/, '')).join('\n')).toBe(
        numbered(500, 100),
      );
    } finally {
      await folder.remove();
    }
  });

  it('says so in one sentence when asked for a line past the end', async () => {
    const folder = await folderWith({ 'short/SKILL.md': skillFile('short', 'Short.', 'one\ntwo') });
    try {
      const tool = createSkillTool({ skills: (await loadSkills(folder.path)).skills });
      expect(await tool.run('short from line 9', { signal: new AbortController().signal })).toBe(
        '[The text has 2 lines; there is no line 9.]',
      );
    } finally {
      await folder.remove();
    }
  });

  it('says the list of files is cut, and how to list one folder', async () => {
    const files: Record<string, string> = { 'many/SKILL.md': skillFile('many', 'Many files.') };
    for (let index = 0; index < 45; index++)
      files[`many/rules/rule-${String(index).padStart(2, '0')}.md`] = 'x';
    const folder = await folderWith(files);
    try {
      const tool = createSkillTool({ skills: (await loadSkills(folder.path)).skills });
      const text = String(await tool.run('many', { signal: new AbortController().signal }));
      expect(text).toContain('(40 of 45 shown; SKILL: many <folder>/ lists one folder)');
    } finally {
      await folder.remove();
    }
  });
});
