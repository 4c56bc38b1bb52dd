import { offeredTo } from '@macstats/app-runtime';
import type { Agent, Tool } from '@macstats/core';
import {
  type AgentDirectory,
  createAgentDirectory,
  type RoleRouter,
  type SkillsAndAgents,
} from '@macstats/skills';

/**
 * The dashboard's agents over whichever core agent Settings made last: one directory per agent
 * and use, each offered what the tool catalog gives that use. The chat's agents (and those they
 * hand tasks to) have RUN_JS; scheduled ones have neither RUN_JS, SCHEDULER nor MEMORY.
 */
export function createDashboardAgents(options: {
  /** Every tool of the dashboard, RUN_JS included. */
  tools: readonly Tool[];
  found: SkillsAndAgents;
  router: RoleRouter;
}) {
  const directories = {
    chat: new WeakMap<Agent, AgentDirectory>(),
    scheduled: new WeakMap<Agent, AgentDirectory>(),
  };
  const directoryOf = (agent: Agent, use: keyof typeof directories): AgentDirectory => {
    let directory = directories[use].get(agent);
    if (!directory) {
      directory = createAgentDirectory({
        agent,
        tools: offeredTo(use, options.tools),
        skills: options.found.skills,
        profiles: options.found.agents,
        modelFor: (profile) => options.router.modelFor(profile),
      });
      directories[use].set(agent, directory);
    }
    return directory;
  };
  return {
    /** Whether profile `id` exists. */
    has: (id: string) => options.found.agents.some((profile) => profile.id === id),
    /** The chat's agent: the dashboard's own, or profile `id`; a sentence when there is no such profile. */
    chat(agent: Agent, id: string | undefined): Pick<Agent, 'answer'> | { unavailable: string } {
      const directory = directoryOf(agent, 'chat');
      if (id === undefined) return directory.agent;
      return directory.get(id) ?? { unavailable: `There is no agent "${id}": pick another one.` };
    },
    /** The dashboard's own agent as a scheduled run sees it. */
    scheduledAgent: (agent: Agent) => directoryOf(agent, 'scheduled').agent,
    /** Profile `id` for a scheduled run; undefined when there is none. */
    scheduled: (agent: Agent, id: string) => directoryOf(agent, 'scheduled').get(id),
  };
}
