import { type AgentProfile, loadAgents, loadSkills, type Skill } from '@macstats/skills';
import { type AppConfig, paths } from './app-config.js';

/** The skills and agent profiles under MACSTATS_HOME, and one sentence per one skipped. */
export interface SkillsAndAgents {
  skills: Skill[];
  agents: AgentProfile[];
  problems: string[];
}

/** Reads `$MACSTATS_HOME/skills` and `$MACSTATS_HOME/agents`; a broken one is skipped with a sentence. */
export async function loadSkillsAndAgents(config: Pick<AppConfig, 'home'>): Promise<SkillsAndAgents> {
  const where = paths(config);
  const [skills, agents] = await Promise.all([
    loadSkills(where.skills, { label: 'skills' }),
    loadAgents(where.agents, { label: 'agents' }),
  ]);
  return { skills: skills.skills, agents: agents.agents, problems: [...skills.problems, ...agents.problems] };
}
