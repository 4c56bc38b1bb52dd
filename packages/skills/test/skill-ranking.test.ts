import { createAgent } from '@macstats/core';
import { type FakeOllama, startFakeOllama } from '@macstats/testing';
import { afterEach, describe, expect, it } from 'vitest';
import {
  createAgentDirectory,
  createSkillTool,
  firstSentence,
  rankSkills,
  type Skill,
} from '../src/index.js';

let fake: FakeOllama | undefined;
afterEach(async () => {
  await fake?.close();
});

const long = (subject: string) =>
  `Use this skill whenever the user wants to do anything with ${subject}, from the first step of the work to the last one. ${'It covers many details of the work. '.repeat(6)}`;
const skills: Skill[] = [
  {
    name: 'pdf',
    description: long('PDF files, such as merging PDFs or filling PDF forms'),
    instructions: 'P.',
    folder: '/s/pdf',
  },
  { name: 'docx', description: long('Word documents (.docx)'), instructions: 'D.', folder: '/s/docx' },
  ...Array.from({ length: 18 }, (_, index) => ({
    name: `other-${String(index).padStart(2, '0')}`,
    description: long(`topic number ${index}`),
    instructions: 'O.',
    folder: `/s/other-${index}`,
  })),
];

describe('choosing among many skills', () => {
  it('reads the first sentence of a description', () => {
    expect(firstSentence('Creating art with p5.js and seeds. Use this when asked for art.')).toBe(
      'Creating art with p5.js and seeds.',
    );
  });

  it('ranks the skills that share words with the question first', () => {
    expect(rankSkills(skills, 'Merge these two PDFs into one').map((skill) => skill.name)[0]).toBe('pdf');
    expect(rankSkills(skills, 'Edit my Word document').map((skill) => skill.name)[0]).toBe('docx');
    expect(rankSkills(skills, 'zzz qqq')).toEqual([]);
  });

  it('searches the descriptions with SKILL: ? <words>', async () => {
    const tool = createSkillTool({ skills });
    const found = String(await tool.run('? fill a pdf form', { signal: new AbortController().signal }));
    expect(found.split('\n')[1]).toBe(
      '- pdf: Use this skill whenever the user wants to do anything with PDF files, such as merging PDFs or filling PDF forms, from the first step of the work to the last one.',
    );
  });

  it('describes the skills that fit the question in the context, after a prefix that stays the same', async () => {
    fake = await startFakeOllama({ replies: ['One.', 'Two.'] });
    const base = createAgent({ ollama: { host: fake.url, model: 'gemma2:2b' }, tools: [], memory: false });
    const { agent } = createAgentDirectory({ agent: base, tools: [], skills, profiles: [] });
    await agent.answer('Merge these PDFs');
    await agent.answer('Edit my Word document');
    const [first, second] = fake.requests;
    const prefix = (request: typeof first) => JSON.stringify([request?.messages[0], request?.tools]);
    expect(prefix(first)).toBe(prefix(second));
    expect(prefix(first)).toContain('SKILL: ? <words> searches all the descriptions.');
    expect(prefix(first)).not.toContain('Use this skill');
    const context = (request: typeof first) => JSON.stringify(request?.messages.slice(1));
    expect(context(first)).toContain(
      'Skills that may fit this question (load one with SKILL: <name>):\\n- pdf: Use this skill',
    );
    expect(context(second)).toContain('- docx: Use this skill');
    await base.close();
  });
});
