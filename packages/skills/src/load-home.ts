import { join } from 'node:path';
import { type AgentProfile, loadAgents } from './load-agents.js';
import { loadSkills, type Skill } from './load-skills.js';

/** The skills and agent profiles of a data folder, and one sentence per one skipped. */
export interface SkillsAndAgents {
  skills: Skill[];
  agents: AgentProfile[];
  problems: string[];
}

/**
 * Reads `<home>/skills` and `<home>/agents` (an app's `MACSTATS_HOME`); a broken skill or agent
 * is skipped with one sentence, named as `skills/<name>` or `agents/<id>`.
 *
 * @example
 * const { skills, agents, problems } = await loadSkillsAndAgents(home);
 */
export async function loadSkillsAndAgents(home: string): Promise<SkillsAndAgents> {
  const [skills, agents] = await Promise.all([
    loadSkills(join(home, 'skills'), { label: 'skills' }),
    loadAgents(join(home, 'agents'), { label: 'agents' }),
  ]);
  return { skills: skills.skills, agents: agents.agents, problems: [...skills.problems, ...agents.problems] };
}
