import { join } from 'node:path';
import { offeredTo } from '@macstats/app-runtime';
import { type Agent, type Logger, MacstatsError, type Tool } from '@macstats/core';
import { createAgentDirectory, type RoleRouter, type SkillsAndAgents } from '@macstats/skills';
import { createTaskRunner, type TaskRunner, type TaskStore } from '@macstats/tasks';
import type { AgentSource } from './chat-feature.js';

/**
 * The dashboard's task runner over `$MACSTATS_HOME/tasks`: it runs steps only while no other
 * runner of the home (`macstats start`) holds the runner lock, and takes over when that one
 * stops. Over the database's tasks (a store without a folder) each task's lease keeps its steps
 * to one host instead, and `onChange` hears of every change this runner makes. A step's agent is the dashboard's current one (Settings' host and model), offered what
 * the catalog gives a task's step (the runner adds TASK).
 */
export function createDashboardTaskRunner(options: {
  store: TaskStore;
  home: string;
  /** Every tool of the dashboard; the catalog's `task` use picks a step's share. */
  tools: readonly Tool[];
  agent: AgentSource;
  found: SkillsAndAgents;
  router: RoleRouter;
  logger: Logger;
  onChange?: () => void;
}): TaskRunner {
  const { found } = options;
  const known = (id: string) => id === 'default' || found.agents.some((profile) => profile.id === id);
  return createTaskRunner({
    store: options.store,
    tools: offeredTo('task', options.tools),
    ...(options.store.dir ? { lockFile: join(options.home, 'tasks', '.runner.lock') } : {}),
    ...(options.onChange ? { onEvent: options.onChange } : {}),
    logger: options.logger,
    agentFor: (id, offered) => {
      if (!known(id)) return undefined;
      // Only `answer` is asked of a step's agent; the model is the one Settings chose when it runs.
      const stepAgent: Pick<Agent, 'answer'> = {
        async answer(question, answerOptions) {
          const current = await options.agent();
          if ('unavailable' in current)
            throw new MacstatsError('MODEL_UNAVAILABLE', current.unavailable, { unreachable: true });
          const directory = createAgentDirectory({
            agent: current as Agent,
            tools: offered,
            skills: found.skills,
            profiles: found.agents,
            modelFor: (profile) => options.router.modelFor(profile),
          });
          const chosen = id === 'default' ? directory.agent : directory.get(id);
          if (!chosen) throw new MacstatsError('AGENT_NOT_FOUND', `There is no agent "${id}".`);
          return chosen.answer(question, answerOptions);
        },
      };
      return stepAgent as Agent;
    },
  });
}
