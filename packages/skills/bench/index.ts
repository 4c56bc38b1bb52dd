// `pnpm bench`: the fixed prompt with twenty skills and every tool, and the prompt prefix reused
// across the requests and answers of a conversation that loads skills; fake Ollama on loopback.
import { rm } from 'node:fs/promises';
import { estimateFixedPromptTokens } from '@macstats/core/internal';
import { type AgentProfile, createAgentDirectory, createSkillTool, loadSkills } from '../src/index.js';
import { everyTool } from './every-tool.js';
import { measureSkillPrefixReuse } from './prefix-reuse.js';
import { realSkills, twentySkills } from './skill-folders.js';

const percent = (value: number) => `${(value * 100).toFixed(1)}%`;
console.log('@macstats/skills bench (fake Ollama on 127.0.0.1)\n');

const folder = await twentySkills();
try {
  const { skills, problems } = await loadSkills(folder);
  if (problems.length > 0 || skills.length !== 20) throw new Error(`bench skills: ${problems.join(' ')}`);
  const tools = everyTool();
  const profiles: AgentProfile[] = ['research', 'writer', 'ops'].map((id) => ({
    id,
    name: id,
    description: `The ${id} agent: hand it ${id} tasks.`,
    model: { name: 'qwen3:4b' },
    prompt: '',
    ownSkills: [],
    folder: '',
  }));
  const stub = {
    answer: async () => ({}) as never,
    forget: async () => {},
    remember: async () => {},
    idle: async () => {},
    close: async () => {},
  };
  const withAll = createAgentDirectory({ agent: stub, tools, skills, profiles }).tools();
  const bare = estimateFixedPromptTokens(tools);
  const withSkills = estimateFixedPromptTokens([...tools, createSkillTool({ skills })]);
  const all = estimateFixedPromptTokens(withAll);
  console.log('1. Fixed prompt (system prompt, tool list, native definitions), estimated tokens');
  console.log(`   every tool (${tools.length})                         ${String(bare).padStart(6)}`);
  console.log(
    `   + SKILL with 20 skills                   ${String(withSkills).padStart(6)}   (+${withSkills - bare})`,
  );
  console.log(
    `   + AGENT with 3 agents                    ${String(all).padStart(6)}   (+${all - withSkills})`,
  );
  console.log(`   within 2,500 tokens: ${all <= 2500 ? 'yes' : 'NO'}`);
  const real = await realSkills();
  if (real.length === 0)
    console.log('   (no ../shared/corpus/real-skills beside the repository: real skills not measured)\n');
  else {
    const twenty = [
      ...real,
      ...real.slice(0, 20 - real.length).map((skill) => ({ ...skill, name: `${skill.name}-copy` })),
    ];
    const withReal = estimateFixedPromptTokens([...tools, createSkillTool({ skills: real })]);
    const withTwenty = estimateFixedPromptTokens([...tools, createSkillTool({ skills: twenty })]);
    console.log(
      `   + SKILL with the ${real.length} real skills (first sentences) ${String(withReal).padStart(6)}   (+${withReal - bare})`,
    );
    console.log(
      `   + SKILL with 20 real skills (named only)  ${String(withTwenty).padStart(6)}   (+${withTwenty - bare})\n`,
    );
  }

  const reuse = await measureSkillPrefixReuse(skills);
  console.log('2. Prompt prefix reuse with 20 skills listed (each request against the next)');
  for (const row of reuse)
    console.log(
      `   ${row.scenario.padEnd(60)} ${String(row.requests).padStart(2)} requests  ${percent(row.share)}`,
    );
  console.log(`   worst: ${percent(Math.min(...reuse.map((row) => row.share)))}   (target 100%)`);
} finally {
  await rm(folder, { recursive: true, force: true });
}
