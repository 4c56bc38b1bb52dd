import { type Agent, modelNotInstalled, sameModel, type Tool } from '@macstats/core';
import {
  createScheduler,
  createTaskExecutor,
  type ExecuteTask,
  type Scheduler,
  type SchedulerOptions,
} from '@macstats/scheduler';
import { type AgentDirectory, type AgentDirectoryOptions, createAgentDirectory } from '@macstats/skills';
import { createTaskRunner, type TaskRunner, type TaskRunnerOptions, type TaskStore } from '@macstats/tasks';
import { type AgentWrapper, wrapAgent } from './agent-wrappers.js';
import { appRuntimeError } from './error-codes.js';
import { withTaskStarts } from './schedule-task-start.js';
import { offeredTo, TOOL_USES, type ToolUse } from './tool-catalog.js';

/** The app's agent as it is now, or one sentence saying why no model can answer. */
export type CurrentAgent = Agent | { unavailable: string };

/** Options of {@link createAppRuntime}. */
export interface AppRuntimeOptions {
  /** Every tool the app built (`assembleTools`, or the settings' and state tools), with RUN_JS where a page runs it. */
  tools: readonly Tool[];
  /** The skills and agent profiles of `MACSTATS_HOME` (`loadSkillsAndAgents`). */
  skills: { skills: AgentDirectoryOptions['skills']; agents: AgentDirectoryOptions['profiles'] };
  /** The model a profile answers with (a role routed to an installed model). Default: the profile's own. */
  modelFor?: AgentDirectoryOptions['modelFor'];
  /**
   * The app's core agent (`createAppAgent`): one value (the bot), or the one the settings chose
   * now (the dashboard's Settings change host and model), or why none can answer.
   */
  agent: Agent | (() => CurrentAgent | Promise<CurrentAgent>);
  /**
   * The models installed now, for an agent given as a function: an unattended run (a schedule, a
   * task's step) asking for another model is refused with a sentence naming the installed ones.
   * Default: not checked here.
   */
  installedModels?: (() => readonly string[]) | undefined;
  /** Around every use's agent, innermost first (`appAgentWrappers`). Default none. */
  wrappers?: readonly AgentWrapper[] | undefined;
}

/** The composition root's answer to every surface: each use's tools and agents, its scheduler and task runner. */
export interface AppRuntime {
  /** The tools `use` is offered, as the catalog says (a task's step: besides the TASK its runner binds). */
  toolsFor(use: ToolUse): Tool[];
  /** The names of the wrappers around every agent, innermost first. */
  wrappers: readonly string[];
  /**
   * Per use, what it gets: its tools (a task's step: and the TASK its runner binds) and the
   * wrappers around its agent (none where no agent answers: a one-line step, `macstats mcp`).
   */
  describe(): Record<ToolUse, { tools: string[]; wrappers: string[] }>;
  /**
   * The agent directory of `use` (its agent, and one per profile, with SKILL and AGENT): for an
   * app whose agent is one value; throws when the agent is chosen per answer (use {@link current}).
   */
  directoryFor(use: ToolUse): AgentDirectory;
  /**
   * The agent of `use` (profile `id`, or the app's own), wrapped and offered the use's tools;
   * undefined when there is no such profile. With an agent chosen per answer, each answer asks for
   * the agent then and fails with one sentence (`MODEL_UNAVAILABLE`) when no model can answer.
   */
  agentFor(use: ToolUse, id?: string): Agent | undefined;
  /** The agent of `use` now, or why none can answer (a missing profile, the model down): for a surface that shows it. */
  current(use: ToolUse, id?: string): Promise<CurrentAgent>;
  /** What a scheduler runs: a one-line step's tool, `TASK: add …` into `tasks`, else the scheduled agent. */
  scheduleExecutor(tasks: TaskStore): ExecuteTask;
  /** The scheduler, running {@link scheduleExecutor}. */
  createScheduler(options: Omit<SchedulerOptions, 'execute'>, tasks: TaskStore): Scheduler;
  /** The task runner: each step offered the `task` use's tools and its bound TASK, answered by the task's agent. */
  createTaskRunner(options: Omit<TaskRunnerOptions, 'tools' | 'agentFor'>): TaskRunner;
}

/** Uses whose runs nobody watches: a model they name must be installed. */
const UNATTENDED: readonly ToolUse[] = ['scheduled', 'task'];
/** Uses no agent answers: a one-line step runs its tool, `macstats mcp` serves the tools. */
const WITHOUT_AGENT: readonly ToolUse[] = ['step', 'mcp'];

/**
 * The composition root of the apps: the one place that offers each use its tools (through the
 * catalog), builds the agent directory (SKILL, AGENT) over the app's agent, puts every wrapper
 * around it, and makes the scheduler and the task runner. Surfaces only ask it (`agentFor`).
 *
 * @example
 * const runtime = createAppRuntime({ tools, skills, agent, wrappers: appAgentWrappers({ metrics }) });
 * createDiscordBot({ agent: runtime.directoryFor('chat').agent, agents: runtime.directoryFor('chat'), ... });
 */
export function createAppRuntime(options: AppRuntimeOptions): AppRuntime {
  const wrappers = options.wrappers ?? [];
  const wrapped = new WeakMap<Agent, Agent>();
  const directories = new Map<ToolUse, WeakMap<Agent, AgentDirectory>>();
  const wrap = (agent: Agent) => {
    let found = wrapped.get(agent);
    if (!found) {
      found = wrapAgent(agent, wrappers);
      wrapped.set(agent, found);
    }
    return found;
  };
  const toolsFor = (use: ToolUse) =>
    // A task's step is offered the TASK its runner binds to the step's task, not the chat's.
    use === 'task'
      ? offeredTo(use, options.tools).filter((tool) => tool.name !== 'TASK')
      : offeredTo(use, options.tools);
  const directory = (base: Agent, tools: readonly Tool[]) =>
    createAgentDirectory({
      agent: wrap(base),
      tools,
      skills: options.skills.skills,
      profiles: options.skills.agents,
      ...(options.modelFor ? { modelFor: options.modelFor } : {}),
    });
  const directoryOver = (base: Agent, use: ToolUse) => {
    let byAgent = directories.get(use);
    if (!byAgent) {
      byAgent = new WeakMap();
      directories.set(use, byAgent);
    }
    let found = byAgent.get(base);
    if (!found) {
      found = directory(base, toolsFor(use));
      byAgent.set(base, found);
    }
    return found;
  };
  const pick = (found: AgentDirectory, id: string | undefined) =>
    id === undefined || id === 'default' ? found.agent : found.get(id);
  const known = (id: string | undefined) =>
    id === undefined || id === 'default' || options.skills.agents.some((profile) => profile.id === id);
  const given = options.agent;
  const resolve = async (): Promise<CurrentAgent> => (typeof given === 'function' ? given() : given);

  /** An agent that asks for the app's agent at each answer, then answers through `choose`. */
  const lazy = (use: ToolUse, choose: (base: Agent) => Agent | undefined, id: string | undefined): Agent =>
    ({
      async answer(question, answerOptions) {
        const base = await resolve();
        if ('unavailable' in base)
          throw appRuntimeError('MODEL_UNAVAILABLE', base.unavailable, {
            unreachable: true,
          });
        // An unattended run's own model must be installed; the sentence names the ones that are.
        const wanted = answerOptions?.model;
        const installed = options.installedModels?.() ?? [];
        if (UNATTENDED.includes(use) && wanted && installed.length > 0)
          if (!installed.some((name) => sameModel(name, wanted)))
            throw appRuntimeError('MODEL_NOT_INSTALLED', modelNotInstalled(wanted, [...installed]));
        const chosen = choose(base);
        if (!chosen) throw appRuntimeError('AGENT_NOT_FOUND', `There is no agent "${id}".`);
        return chosen.answer(question, answerOptions);
      },
    }) as Agent;

  const agentFor = (use: ToolUse, id?: string): Agent | undefined => {
    if (typeof given !== 'function') return pick(directoryOver(given, use), id);
    if (!known(id)) return undefined;
    return lazy(use, (base) => pick(directoryOver(base, use), id), id);
  };
  const scheduleExecutor = (tasks: TaskStore) =>
    // A schedule whose task is `TASK: add <instructions>` starts a durable task, once per run.
    withTaskStarts(
      createTaskExecutor({
        tools: toolsFor('step'),
        agent: agentFor('scheduled'),
        agentFor: (id) => agentFor('scheduled', id),
      }),
      tasks,
    );

  return {
    toolsFor,
    wrappers: wrappers.map((wrapper) => wrapper.name),
    describe() {
      const names = (tools: readonly Tool[]) => tools.map((tool) => tool.name);
      const entries = TOOL_USES.map((use) => [
        use,
        {
          tools: use === 'task' ? [...names(toolsFor(use)), 'TASK'] : names(toolsFor(use)),
          wrappers: WITHOUT_AGENT.includes(use) ? [] : wrappers.map((wrapper) => wrapper.name),
        },
      ]);
      return Object.fromEntries(entries) as Record<ToolUse, { tools: string[]; wrappers: string[] }>;
    },
    directoryFor(use) {
      if (typeof given === 'function')
        throw appRuntimeError('NO_FIXED_AGENT', 'The app chooses its agent per answer: ask current(use).');
      return directoryOver(given, use);
    },
    agentFor,
    async current(use, id) {
      const base = await resolve();
      if ('unavailable' in base) return base;
      const chosen = pick(directoryOver(base, use), id);
      return chosen ?? { unavailable: `There is no agent "${id}": pick another one.` };
    },
    scheduleExecutor,
    createScheduler: (schedulerOptions, tasks) =>
      createScheduler({ ...schedulerOptions, execute: scheduleExecutor(tasks) } as SchedulerOptions),
    createTaskRunner: (runnerOptions) =>
      createTaskRunner({
        ...runnerOptions,
        tools: toolsFor('task'),
        // The catalog checks the step's own tools too: the recorded ones and its bound TASK.
        agentFor: (id, stepTools) => {
          const offered = offeredTo('task', stepTools);
          if (typeof given !== 'function') return pick(directory(given, offered), id);
          if (!known(id)) return undefined;
          return lazy('task', (base) => pick(directory(base, offered), id), id);
        },
      }),
  };
}
