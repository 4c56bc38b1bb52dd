import { join } from 'node:path';
import { estimateFixedPromptTokens } from '@macstats/core/internal';
import { describe, expect, it } from 'vitest';
import { everyTool } from '../bench/every-tool.js';
import { createSkillTool, firstSentence, loadSkills, type Skill, skillListFits } from '../src/index.js';
import { loadRealSkills, REAL_SKILLS_DIR } from './real-skills-corpus.js';

const corpus = loadRealSkills();

/** Twenty skills as people write them: the corpus's twelve, then eight of them again under other names. */
async function twentyRealSkills(): Promise<Skill[]> {
  const collections = [...new Set((corpus ?? []).map((skill) => skill.collection))];
  const loaded = (
    await Promise.all(collections.map((collection) => loadSkills(join(REAL_SKILLS_DIR, collection))))
  ).flatMap((found) => found.skills);
  return [
    ...loaded,
    ...loaded.slice(0, 20 - loaded.length).map((skill) => ({ ...skill, name: `${skill.name}-copy` })),
  ];
}

describe.skipIf(!corpus)('the fixed prompt with twenty real skills and every tool', () => {
  it('stays within 2 500 tokens and cuts no description before the end of its first sentence', async () => {
    const skills = await twentyRealSkills();
    expect(skills).toHaveLength(20);
    const tools = everyTool();
    const tool = createSkillTool({ skills });
    const tokens = estimateFixedPromptTokens([...tools, tool]);
    const twelve = skills.slice(0, corpus?.length);
    const twelveTokens = estimateFixedPromptTokens([...tools, createSkillTool({ skills: twelve })]);
    const whole = estimateFixedPromptTokens([...tools, createSkillTool({ skills, listChars: 1_000_000 })]);
    // The measured trade-off, printed for the docs: twenty first sentences do not fit, so the
    // prompt names the skills and the context describes those that fit the question.
    console.info(
      `every tool: ${estimateFixedPromptTokens(tools)} tokens; + ${twelve.length} real skills, each with its first sentence: ${twelveTokens}; + 20, named only: ${tokens} (with twenty first sentences it would be ${whole})`,
    );
    expect(tokens).toBeLessThanOrEqual(2500);
    expect(twelveTokens).toBeLessThanOrEqual(2500);
    const details = tool.details?.() ?? '';
    for (const skill of skills) {
      expect(details).toContain(skill.name);
      const shown = new RegExp(`- ${skill.name}: (.*)`).exec(details)?.[1];
      if (shown !== undefined) expect(shown.startsWith(firstSentence(skill.description))).toBe(true);
    }
    expect(details).not.toContain('…');
    expect(skillListFits(twelve)).toBe(true);
  });
});
