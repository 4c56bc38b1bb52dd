import type { Agent, AnswerOptions, Tool } from '@macstats/core';
import { failedAnswer } from '@macstats/core/internal';
import { createAgentTool } from './agent-tool.js';
import { SKILLS_DEFAULTS } from './defaults.js';
import type { AgentProfile } from './load-agents.js';
import type { Skill } from './load-skills.js';
import { withRankedSkills } from './skill-context.js';
import { createSkillTool } from './skill-tool.js';

/** The model a profile answers with, or one sentence saying why it has none (a role no model fills). */
export type ProfileModel = { model: string } | { problem: string };

/** Options of {@link createAgentDirectory}. */
export interface AgentDirectoryOptions {
  /** The app's agent: every profile answers through it, with its own model, tools and prompt. */
  agent: Agent;
  /** The tools the app offers (without SKILL and AGENT, which the directory adds). */
  tools: readonly Tool[];
  /** The skills in `$MACSTATS_HOME/skills`; a function is asked on every answer. */
  skills: readonly Skill[] | (() => readonly Skill[]);
  /** The agent profiles; none: the app's agent alone, with SKILL when there are skills. */
  profiles: readonly AgentProfile[];
  /**
   * The model of a profile: its own, or the one its role is routed to. Default: the profile's
   * model name; a profile naming a role then gets the app's model.
   */
  modelFor?: ((profile: AgentProfile) => ProfileModel | Promise<ProfileModel>) | undefined;
  /** Levels of agents in all (the one asked, and the one it hands to). Default 2. */
  maxDepth?: number | undefined;
}

/** The agents of an app: the default one and one per profile. */
export interface AgentDirectory {
  /** The app's agent with SKILL (when there are skills) and AGENT (when there are profiles). */
  agent: Agent;
  /** Every profile, sorted by id. */
  profiles: readonly AgentProfile[];
  /** The agent of profile `id` as the user's agent, or undefined when there is no such profile. */
  get(id: string): Agent | undefined;
  /** The tools an answer of the default agent is offered (the app's, SKILL, AGENT). */
  tools(): Tool[];
}

/**
 * The agents of an app, made from its agent, tools, skills and `AGENT.md` profiles. The default
 * agent is the app's, with SKILL and AGENT added; a profile's agent answers through the same
 * agent (and so the same memory, model server and approvals) with the profile's model (or the
 * model its role routes to), the tools and skills it allows, its prompt after the app's, its
 * iteration cap and planning. With no profiles and no skills, `agent` answers as the app's agent
 * with the directory's tools.
 *
 * @example
 * const directory = createAgentDirectory({ agent, tools, skills, profiles });
 * await directory.get('research')?.answer('What changed in Ollama 0.12?');
 */
export function createAgentDirectory(options: AgentDirectoryOptions): AgentDirectory {
  const base = options.agent;
  const profiles = [...options.profiles].sort((a, b) => a.id.localeCompare(b.id));
  const allSkills =
    typeof options.skills === 'function' ? options.skills : () => options.skills as readonly Skill[];
  const maxDepth = options.maxDepth ?? SKILLS_DEFAULTS.maxHandoffDepth;
  const byId = new Map(profiles.map((profile) => [profile.id, profile]));
  const targets = { profiles: () => profiles, agentAt: (id: string, level: number) => agentAt(id, level) };
  const agentTools = new Map<number, Tool>();
  const agentTool = (level: number): Tool => {
    let tool = agentTools.get(level);
    if (!tool) {
      tool = createAgentTool({ targets, level, maxDepth });
      agentTools.set(level, tool);
    }
    return tool;
  };
  const defaultSkillTool = createSkillTool({ skills: allSkills });

  /** The app's tools, SKILL and AGENT, as the default agent offers them. */
  function defaultTools(given: readonly Tool[]): Tool[] {
    const tools = [...given];
    if (allSkills().length > 0) tools.push(defaultSkillTool);
    if (profiles.length > 0) tools.push(agentTool(1));
    return tools;
  }

  /** The skills a profile may load: those it allows, and its own (which win on a name). */
  function skillsOf(profile: AgentProfile): Skill[] {
    const allowed = allSkills().filter((skill) => profile.skills?.includes(skill.name) ?? true);
    const own = new Set(profile.ownSkills.map((skill) => skill.name));
    return [...allowed.filter((skill) => !own.has(skill.name)), ...profile.ownSkills];
  }

  const skillTools = new Map<string, Tool>();
  /** The tools a profile's answer at `level` is offered. */
  function toolsOf(profile: AgentProfile, level: number): Tool[] {
    const allows = (name: string) => profile.tools?.includes(name) ?? true;
    const tools = options.tools.filter((tool) => allows(tool.name.toUpperCase()));
    let skillTool = skillTools.get(profile.id);
    if (!skillTool) {
      skillTool = createSkillTool({ skills: () => skillsOf(profile) });
      skillTools.set(profile.id, skillTool);
    }
    if (allows('SKILL') && skillsOf(profile).length > 0) tools.push(skillTool);
    if (allows('AGENT') && profiles.length > 0) tools.push(agentTool(level));
    return tools;
  }

  function agentAt(id: string, level: number): Agent | undefined {
    const profile = byId.get(id);
    if (!profile) return undefined;
    return {
      ...base,
      async answer(question: string, answerOptions: AnswerOptions = {}) {
        const chosen = options.modelFor ? await options.modelFor(profile) : modelOf(profile);
        if ('problem' in chosen) {
          answerOptions.onEvent?.({ type: 'error', code: 'AGENT_MODEL_MISSING', message: chosen.problem });
          return failedAnswer({ code: 'AGENT_MODEL_MISSING', message: chosen.problem });
        }
        const caps = [profile.maxToolIterations, answerOptions.maxToolIterations].filter(
          (cap): cap is number => cap !== undefined,
        );
        const extra = [profile.prompt, answerOptions.systemPromptExtra]
          .filter((part): part is string => part !== undefined && part.trim() !== '')
          .join('\n\n');
        const planning = profile.planning ?? answerOptions.planning;
        const allowed = toolsOf(profile, level).some((tool) => tool.name === 'SKILL');
        return base.answer(question, {
          ...(allowed ? withRankedSkills(question, answerOptions, skillsOf(profile)) : answerOptions),
          ...(chosen.model ? { model: chosen.model } : {}),
          tools: toolsOf(profile, level),
          // Its tokens count against the profile's daily budget, not the asker's.
          account: { ...answerOptions.account, agent: profile.id },
          ...(extra ? { systemPromptExtra: extra } : {}),
          ...(planning !== undefined ? { planning } : {}),
          ...(caps.length > 0 ? { maxToolIterations: Math.min(...caps) } : {}),
        });
      },
    };
  }

  // Always the directory's tools: a directory of fewer tools (a scheduled run's) must not offer
  // the app's agent's others, with or without skills and profiles.
  const agent: Agent = {
    ...base,
    answer: (question, answerOptions = {}) =>
      base.answer(question, {
        ...withRankedSkills(question, answerOptions, allSkills()),
        tools: defaultTools(answerOptions.tools ?? options.tools),
      }),
  };
  return {
    agent,
    profiles,
    get: (id) => agentAt(id, 1),
    tools: () => defaultTools(options.tools),
  };
}

/** A profile's own model name; a role without a router answers with the app's model. */
function modelOf(profile: AgentProfile): ProfileModel {
  return 'name' in profile.model ? { model: profile.model.name } : { model: '' };
}
