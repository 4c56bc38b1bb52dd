import { createAppTokenBudget, MODEL_SETTING_NAMES } from '@macstats/app-config';
import {
  type AppRuntime,
  type AssembledTools,
  appAgentWrappers,
  createAppAgent,
  createAppRuntime,
} from '@macstats/app-runtime';
import {
  type Agent,
  type ChatModel,
  checkOllama,
  createModelPool,
  createOllamaModel,
  createOllamaPoolMember,
  type DailyTokenBudget,
  type Logger,
  type MemoryStore,
  type MessageArchive,
  type ModelPool,
  type TokenLedger,
} from '@macstats/core';
import { checkOpenAi, createOpenAiModel, createOpenAiPoolMember } from '@macstats/model-openai';
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
import type { NoteBackend } from '@macstats/tools-memory';
import { type AppConfig, paths } from './app-config.js';
import { assembleBotTools } from './bot-tools.js';
import { readEvalReport } from './eval/save-report.js';
import { createInstalledModels } from './installed-models.js';
import { memoryOptionsOf } from './memory-settings.js';
import { createModelResolver, type ModelLookup, withModel } from './model-resolver.js';
import { withNotes } from './with-notes.js';

/** What the model's server said at start-up, whichever provider it is. */
export interface ModelServerCheck {
  /** True when the server answered and a usable model is there. */
  ok: boolean;
  /** True when the server answered at all. */
  reachable: boolean;
  /** `ollama` or `openai`. */
  provider: AppConfig['modelProvider'];
  /** Where the server is: OLLAMA_HOST or OPENAI_BASE_URL. */
  url: string;
  /** The model to use, when one was found. */
  model: string | null;
  /** The models the server has. */
  models: string[];
  /** Whether the model has native tool calling (null when unknown). */
  tools: boolean | null;
  /** One sentence naming what is wrong and the fix; null when all is well. */
  problem: string | null;
}

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

/** The sentence for MODEL_PROVIDER=openai without a base URL. */
export const OPENAI_BASE_URL_MISSING =
  "MODEL_PROVIDER=openai needs OPENAI_BASE_URL, the server's API address such as http://127.0.0.1:8080/v1 (llama-server) or http://127.0.0.1:1234/v1 (LM Studio).";

/**
 * Checks the configured model server (Ollama or OpenAI-compatible); never throws for its problems.
 * With several servers (OLLAMA_HOSTS, OPENAI_BASE_URLS) all are asked at once and the first, in
 * the list's order, that serves the model answers for the pool, listing the models of every
 * server that answered: one server down is not a problem while another serves (the pool routes
 * around it), and a model on any server is installed.
 */
export async function checkModelServer(config: AppConfig, signal?: AbortSignal): Promise<ModelServerCheck> {
  if (config.modelProvider === 'openai') {
    if (!config.openaiBaseUrl) return { ...openAiBase(''), problem: OPENAI_BASE_URL_MISSING };
    const urls = config.openaiBaseUrls.length > 0 ? config.openaiBaseUrls : [config.openaiBaseUrl];
    return pooled(await Promise.all(urls.map((url) => checkOpenAiServer(config, url, signal))));
  }
  const hosts = config.ollamaHosts.length > 0 ? config.ollamaHosts : [config.ollamaHost];
  return pooled(await Promise.all(hosts.map((host) => checkOllamaServer(config, host, signal))));
}

/**
 * The servers of a pool as one: the first, in the list's order, that serves the model, with the
 * models every reachable one has (the pool routes a model to a server that has it).
 */
function pooled(each: ModelServerCheck[]): ModelServerCheck {
  const chosen = each.find((found) => found.ok) ?? (each[0] as ModelServerCheck);
  if (each.length < 2) return chosen;
  const models = [...new Set(each.filter((found) => found.reachable).flatMap((found) => found.models))];
  return { ...chosen, models };
}

async function checkOllamaServer(
  config: AppConfig,
  host: string,
  signal: AbortSignal | undefined,
): Promise<ModelServerCheck> {
  const found = await checkOllama({
    host,
    ...(config.ollamaModel ? { model: config.ollamaModel } : {}),
    ...(signal ? { signal } : {}),
    settingNames: config.ollamaHosts.length > 1 ? MODEL_SETTING_NAMES.ollamaPool : MODEL_SETTING_NAMES.ollama,
  });
  return {
    ok: found.ok,
    reachable: found.reachable,
    provider: 'ollama',
    url: host,
    model: found.model,
    models: found.models,
    tools: found.tools,
    problem: found.problem,
  };
}

function openAiBase(url: string) {
  return {
    ok: false,
    reachable: false,
    provider: 'openai' as const,
    url,
    model: null,
    models: [],
    tools: null,
  };
}

async function checkOpenAiServer(
  config: AppConfig,
  url: string,
  signal: AbortSignal | undefined,
): Promise<ModelServerCheck> {
  const found = await checkOpenAi({
    baseUrl: url,
    apiKey: config.openaiApiKey,
    model: config.openaiModel,
    signal,
    settingNames:
      config.openaiBaseUrls.length > 1 ? MODEL_SETTING_NAMES.openaiPool : MODEL_SETTING_NAMES.openai,
  });
  // An OpenAI-compatible server does not say whether it takes tools: the first request tells.
  return {
    ...openAiBase(url),
    ok: found.ok,
    reachable: found.reachable,
    model: found.model,
    models: found.models,
    problem: found.problem,
  };
}

/** The chat model of the configured server for `model`. */
export function chatModel(config: AppConfig, model: string): ChatModel {
  if (config.modelProvider === 'openai')
    return createOpenAiModel({
      baseUrl: config.openaiBaseUrl ?? 'http://127.0.0.1:8080/v1',
      apiKey: config.openaiApiKey,
      model,
      settingNames: MODEL_SETTING_NAMES.openai,
    });
  return createOllamaModel({
    host: config.ollamaHost,
    model,
    keepAlive: config.ollamaKeepAlive,
    settingNames: MODEL_SETTING_NAMES.ollama,
  });
}

/**
 * Several servers of the configured provider (`OLLAMA_HOSTS`, `OPENAI_BASE_URLS`) as one pool:
 * loaded first, then least busy; a server that fails is routed around. One server: no pool.
 */
function createPool(config: AppConfig, model: string, logger: Logger): ModelPool | undefined {
  if (config.modelProvider === 'openai') {
    if (config.openaiBaseUrls.length < 2) return undefined;
    return createModelPool({
      members: config.openaiBaseUrls.map((baseUrl) =>
        createOpenAiPoolMember({
          baseUrl,
          apiKey: config.openaiApiKey,
          model,
          settingNames: MODEL_SETTING_NAMES.openaiPool,
        }),
      ),
      logger,
    });
  }
  if (config.ollamaHosts.length < 2) return undefined;
  return createModelPool({
    members: config.ollamaHosts.map((host) =>
      createOllamaPoolMember({
        host,
        model,
        keepAlive: config.ollamaKeepAlive,
        settingNames: MODEL_SETTING_NAMES.ollamaPool,
      }),
    ),
    logger,
  });
}

/** How the resolver asks the server for a model again while none is known. */
function lookup(config: AppConfig): ModelLookup {
  return async () =>
    (await checkModelServer(config, AbortSignal.timeout(3000)).catch(() => undefined))?.model ?? null;
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
    checkModelServer(config, signal),
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
  const model = createModelResolver({
    configured: config.modelProvider === 'openai' ? config.openaiModel : config.ollamaModel,
    initial: server.model,
    lookup: lookup(config),
  });
  const pool = createPool(config, model.known, logger);
  // Which host has which model is known before the first request, so an agent's model (or a
  // role's) goes to a host that has it from the start (each check is bounded by its time limit).
  await pool?.checkHealth();
  const installed = createInstalledModels({
    list: async () => {
      const found = await checkModelServer(config, AbortSignal.timeout(3000));
      return found.reachable ? found.models : null;
    },
  });
  const chat = pool ?? chatModel(config, model.known);
  const agent = createAppAgent({
    model: chat,
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
    listModels: async () => {
      const found = await checkModelServer(config, AbortSignal.timeout(3000));
      return found.reachable ? found.models : null;
    },
    capabilities: (name) => chat.capabilities({ model: name, signal: AbortSignal.timeout(3000) }),
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
    // The bot's own layers first: the model resolved (and checked installed) per answer, then the
    // MEMORY notes read into its context; then every app's (the answer counter, the budget).
    wrappers: [
      {
        name: 'model',
        wrap: (inner) =>
          withModel(
            inner,
            () => model.current(),
            (name) => installed.problem(name),
          ),
      },
      { name: 'notes', wrap: (inner) => withNotes(inner, tools.notes) },
      ...appAgentWrappers({ metrics: shared.metrics, model: () => model.known, tokenBudget: budget }),
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
      pool?.close();
      await Promise.allSettled([agent.close(), tools.close()]);
    },
  };
}
