import { mkdir, symlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { createAgent } from '@macstats/core';
import { type FakeOllama, startFakeOllama } from '@macstats/testing';
import { afterEach, describe, expect, it } from 'vitest';
import { createSkillTool, formatSkillList, loadSkills } from '../src/index.js';
import { folderWith, skillFile } from './folders.js';

let folder: Awaited<ReturnType<typeof folderWith>> | undefined;
let fake: FakeOllama | undefined;
afterEach(async () => {
  await folder?.remove();
  await fake?.close();
});

async function skillsFolder() {
  folder = await folderWith({
    'release-notes/SKILL.md': skillFile(
      'release-notes',
      'Summarises release notes into three bullets.',
      'Fetch the notes, then write three bullets. See reference/style.md.',
    ),
    'release-notes/reference/style.md': 'Bullets start with a verb.',
    'release-notes/scripts/run.sh': '#!/bin/sh\necho never run',
    'haiku/SKILL.md': skillFile('haiku', 'Writes a haiku.', 'Five, seven, five syllables.'),
  });
  return (await loadSkills(folder.path)).skills;
}

describe('the SKILL tool', () => {
  it('lists each skill by name and description only, and loads its instructions when the model asks', async () => {
    const skills = await skillsFolder();
    fake = await startFakeOllama({ replies: ['SKILL: release-notes', 'Here are three bullets.'] });
    const agent = createAgent({
      ollama: { host: fake.url, model: 'gemma2:2b' },
      tools: [createSkillTool({ skills })],
      memory: false,
    });
    const answer = await agent.answer('Summarise the Ollama release notes');
    const system = fake.requests[0]?.messages[0]?.content ?? '';
    expect(system).toContain('- haiku: Writes a haiku.');
    expect(system).toContain('- release-notes: Summarises release notes into three bullets.');
    expect(system).not.toContain('Fetch the notes');
    const fed = fake.requests[1]?.messages.at(-1)?.content ?? '';
    expect(fed).toContain('Fetch the notes, then write three bullets.');
    expect(fed).toContain('follow them');
    expect(fed).toContain('reference/style.md, scripts/run.sh');
    expect(answer.text).toBe('Here are three bullets.');
  });

  it('reads a file of the skill as text, and never runs a script', async () => {
    const tool = createSkillTool({ skills: await skillsFolder() });
    const signal = new AbortController().signal;
    expect(await tool.run('release-notes reference/style.md', { signal })).toBe('Bullets start with a verb.');
    expect(await tool.run('release-notes scripts/run.sh', { signal })).toBe('#!/bin/sh\necho never run');
  });

  it.each([
    ['../haiku/SKILL.md', "../haiku/SKILL.md is not a path inside the skill's folder."],
    ['/etc/passwd', "/etc/passwd is not a path inside the skill's folder."],
    ['missing.md', 'The skill has no file missing.md.'],
  ])('refuses %s with one sentence', async (file, sentence) => {
    const tool = createSkillTool({ skills: await skillsFolder() });
    expect(await tool.run(`release-notes ${file}`, { signal: new AbortController().signal })).toEqual({
      text: sentence,
      isError: true,
    });
  });

  it('refuses a file reached through a symbolic link, and names a binary file as such', async () => {
    const skills = await skillsFolder();
    const own = join(folder?.path ?? '', 'release-notes');
    await symlink('/etc', join(own, 'etc'));
    await mkdir(join(own, 'fonts'));
    await writeFile(join(own, 'fonts', 'serif.ttf'), Buffer.from([0, 1, 0, 0, 0, 12]));
    const tool = createSkillTool({ skills });
    const signal = new AbortController().signal;
    expect(await tool.run('release-notes etc/hostname', { signal })).toEqual({
      text: 'etc/hostname goes through a symbolic link, which is not followed.',
      isError: true,
    });
    expect(await tool.run('release-notes fonts/serif.ttf', { signal })).toEqual({
      text: 'fonts/serif.ttf is a binary file (not text), so it cannot be read.',
      isError: true,
    });
    expect(await tool.run('release-notes', { signal })).toContain('fonts/serif.ttf (binary, not readable)');
  });

  it('lists the files of one folder of the skill when asked for the folder', async () => {
    const tool = createSkillTool({ skills: await skillsFolder() });
    expect(await tool.run('release-notes reference', { signal: new AbortController().signal })).toBe(
      'Files in reference/ (read one with SKILL: release-notes <file>): reference/style.md',
    );
  });

  it('names the skills there are when asked for one that is not', async () => {
    const tool = createSkillTool({ skills: await skillsFolder() });
    expect(await tool.run('poetry', { signal: new AbortController().signal })).toEqual({
      text: 'There is no skill named "poetry". The skills are: haiku, release-notes.',
      isError: true,
    });
  });

  it("declares that it reads, sends and keeps nothing, and that its results are the user's words", () => {
    const tool = createSkillTool({ skills: [] });
    expect(tool.labels).toEqual({});
    expect(tool.resultsByUser).toBe(true);
  });
});

describe('formatSkillList', () => {
  it('lists a short description whole and a long one by its first sentence, never cut inside it', () => {
    const skills = [
      { name: 'short', description: 'Writes a haiku.', instructions: '', folder: '/skills' },
      {
        name: 'long',
        description: `Fills PDF forms and merges PDFs. ${'More about it. '.repeat(20)}`,
        instructions: '',
        folder: '/skills',
      },
    ];
    expect(formatSkillList(skills)).toBe(
      '- long: Fills PDF forms and merges PDFs.\n- short: Writes a haiku.',
    );
  });

  it('names every skill, and says how to search them, when their first sentences do not fit', () => {
    const skills = Array.from({ length: 40 }, (_, index) => ({
      name: `skill-${String(index).padStart(2, '0')}`,
      description: 'A long description of what this skill does and when to use it, with details. '.repeat(2),
      instructions: '',
      folder: '/skills',
    }));
    const list = formatSkillList(skills);
    expect(list).toContain('skill-00, skill-01');
    expect(list).toContain('skill-39\n');
    expect(list).toContain('SKILL: ? <words> searches all the descriptions.');
    expect(list).not.toContain('…');
  });
});
