import { createAppTokenBudget } from '@macstats/app-config';
import {
  type AppRuntime,
  type AssembledTools,
  appAgentWrappers,
  checkModelServer,
  createAppAgent,
  createAppRuntime,
  createModelSide,
  type ModelServerCheck,
  type NoteBackend,
} from '@macstats/app-runtime';
import type {
  Agent,
  DailyTokenBudget,
  Logger,
  MemoryStore,
  MessageArchive,
  TokenLedger,
} from '@macstats/core';
import type { AppMetrics } from '@macstats/observability';
import type { ScheduleSource } from '@macstats/scheduler';
import {
  type AgentDirectory,
  createRoleRouter,
  loadSkillsAndAgents,
  type RoleRouter,
  type SkillsAndAgents,
} from '@macstats/skills';
import type { TaskStore } from '@macstats/tasks';
import { type AppConfig, paths } from './app-config.js';
import { assembleBotTools } from './bot-tools.js';
import { readEvalReport } from './eval/save-report.js';
import { memoryOptionsOf } from './memory-settings.js';

/** The agent with its tools, ready to answer. */
export interface Runtime {
  /** The app's agent, with SKILL and AGENT when skills and agent profiles are installed. */
  agent: Agent;
  /** The agent profiles: `agents.get(id)` answers as one (`--agent`, `/agent`, a schedule's `agent`). */
  agents: AgentDirectory;
  /**
   * The composition root: each use's agents and tools (`agentFor(use, id)`, `directoryFor(use)`:
   * a scheduled run gets no SCHEDULER or MEMORY, as the app's agent, as a profile, and across a
   * handoff), the scheduler and the task runner.
   */
  app: AppRuntime;
  /** The skills and profiles found, and one sentence per one skipped. */
  skills: SkillsAndAgents;
  /** Model roles routed to installed models; null when the server cannot be asked. */
  routes: RoleRouter['table'];
  tools: AssembledTools;
  /** What the model's server said at start-up. */
  server: ModelServerCheck;
  /** The daily token budget (`DAILY_TOKENS_*`), for what is spent outside answers (transcripts); undefined when off. */
  budget: DailyTokenBudget | undefined;
  /** Ends the agent's background work, the metrics collector and the MCP servers. */
  close(): Promise<void>;
}

/**
 * Checks the model server, assembles the tools and makes the agent. Resolves even when the
 * server is down: the agent then answers with the sentence that names the fix, `server.problem`
 * says it once for the log, and the model is picked again once the server is up.
 */
export async function createRuntime(
  config: AppConfig,
  logger: Logger,
  signal?: AbortSignal,
  shared: {
    scheduleSource?: ScheduleSource | undefined;
    memoryStore?: MemoryStore | undefined;
    /** Every conversation's messages (`DATABASE_URL`: the database's); undefined: files under `sessions/archive/`. */
    messageArchive?: MessageArchive | undefined;
    noteBackend?: NoteBackend | undefined;
    /** Where the chat's TASK adds tasks (`DATABASE_URL`: the database's); undefined: files under `tasks/`. */
    taskStore?: TaskStore | undefined;
    /** Counts each answer (`METRICS_PORT`). */
    metrics?: AppMetrics | undefined;
    /** Where the daily token budgets are counted for every host (`DATABASE_URL`); undefined: a file in MACSTATS_HOME. */
    tokenLedger?: TokenLedger | undefined;
    /** Prompts, replies and tool text in spans (`OTEL_INSTRUMENTATION_GENAI_CAPTURE_MESSAGE_CONTENT`). */
    recordContent?: boolean | undefined;
  } = {},
): Promise<Runtime> {
  const [checked, assembled, found] = await Promise.allSettled([
    checkModelServer(config, { signal }),
    assembleBotTools(config, {
      logger,
      scheduleSource: shared.scheduleSource,
      noteBackend: shared.noteBackend,
      taskStore: shared.taskStore,
      messageArchive: shared.messageArchive,
    }),
    loadSkillsAndAgents(config.home),
  ]);
  if (assembled.status === 'rejected') throw assembled.reason;
  const tools = assembled.value;
  if (checked.status === 'rejected') {
    // Only an abort gets here: end the MCP servers already started.
    await tools.close();
    throw checked.reason;
  }
  const server = checked.value;
  if (server.problem) logger.warn({ provider: server.provider, url: server.url }, server.problem);
  for (const problem of tools.problems) logger.warn({}, problem);
  const skills: SkillsAndAgents =
    found.status === 'fulfilled' ? found.value : { skills: [], agents: [], problems: [], withheld: [] };
  for (const problem of skills.problems) logger.warn({}, problem);
  const model = await createModelSide(config, { server, logger });
  const agent = createAppAgent({
    model: model.chat,
    tools: tools.tools,
    logger,
    // DATABASE_URL: conversations continue on whichever host answers next.
    memory: {
      ...(shared.memoryStore ? { store: shared.memoryStore } : { dir: paths(config).sessions }),
      // One archive for recall and MEMORY's search, where the messages are kept.
      archive: tools.archive,
      ...memoryOptionsOf(config.memory),
    },
    contextLength: config.modelContextLength,
    maxContextLength: config.modelMaxContext,
    home: config.home,
    recordContent: shared.recordContent,
  });
  const router = createRoleRouter({
    listModels: model.listModels,
    capabilities: model.capabilities,
    readEval: async () => (await readEvalReport(paths(config).evalReport))?.models,
  });
  // DAILY_TOKENS_PER_AGENT / _PER_CHANNEL: every answer (chat, scheduled runs, task steps, a
  // profile's, a handoff's) passes the budget before the model is asked.
  const budget = createAppTokenBudget({
    home: config.home,
    limits: config.dailyTokens,
    ledger: shared.tokenLedger,
    onEvent: shared.metrics?.recordTokenBudget,
  });
  if (budget) shared.metrics?.observeTokenBudget(budget);
  const app = createAppRuntime({
    tools: tools.tools,
    skills,
    modelFor: (profile) => router.modelFor(profile),
    agent,
    // The root's model side first: the model resolved (and checked installed) per answer; then
    // every app's (the MEMORY notes read into its context, the answer counter, the budget).
    wrappers: [
      model.wrapper,
      ...appAgentWrappers({
        notes: tools.notes,
        metrics: shared.metrics,
        model: model.known,
        tokenBudget: budget,
      }),
    ],
  });
  const agents = app.directoryFor('chat');
  return {
    agent: agents.agent,
    agents,
    app,
    skills,
    routes: router.table,
    tools,
    server,
    budget,
    async close() {
      model.close();
      await Promise.allSettled([agent.close(), tools.close()]);
    },
  };
}
