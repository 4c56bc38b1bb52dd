import { join } from 'node:path';
import { appLinkChoices, MODEL_SETTING_NAMES } from '@macstats/app-config';
import {
  createStateTools,
  type McpSignInSurface,
  offeredTo,
  RUN_JS_UNAVAILABLE,
  withTaskStarts,
} from '@macstats/app-runtime';
import {
  type Agent,
  APPROVAL_RULES_FILE,
  ARCHIVE_FOLDER,
  createAgent,
  createApprovalRuleStore,
  createMemoryStore,
  createMessageArchive,
  createOllamaModel,
  createPendingApprovals,
  type DailyTokenBudget,
  type Logger,
  MacstatsError,
  modelNotInstalled,
  sameModel,
  silentLogger,
  type Tool,
} from '@macstats/core';
import {
  createInferenceRecorder,
  createMetricsCollector,
  formatSummaryLine,
  type MetricsCollector,
} from '@macstats/metrics';
import { createOpenAiModel } from '@macstats/model-openai';
import type { AppMetrics } from '@macstats/observability';
import {
  createFileScheduleSource,
  createScheduler,
  createTaskExecutor,
  readRunHistory,
  type Scheduler,
  STATE_FILES,
} from '@macstats/scheduler';
import { createRoleRouter, loadSkillsAndAgents } from '@macstats/skills';
import { createTaskStore, type TaskRunner } from '@macstats/tasks';
import type { McpServerSet } from '@macstats/tools-mcp';
import { createNoteStore, formatNotes, type NoteBackend } from '@macstats/tools-memory';
import { createApprovalsFeature } from './approvals-feature.js';
import { createChatFeature } from './chat-feature.js';
import { chatMemoryActions } from './chat-memory.js';
import { createConversationStore } from './conversation-store.js';
import { createDashboardAgents } from './dashboard-agents.js';
import type { DashboardSharedState } from './dashboard-shared-state.js';
import { createDashboardTaskRunner } from './dashboard-tasks.js';
import { readEvalSummary } from './eval-summary.js';
import { createMcpFeature } from './mcp-feature.js';
import { createMetricsFeature } from './metrics-feature.js';
import { createNotesFeature } from './notes-feature.js';
import { createOllamaFeature } from './ollama-feature.js';
import { type OllamaStatus, probeOpenAi } from './ollama-probe.js';
import { createSchedulesFeature } from './schedules-feature.js';
import { createSkillsFeature } from './skills-feature.js';
import { type HttpDashboard, startHttpDashboard } from './start-dashboard.js';
import { createTasksFeature } from './tasks-feature.js';
import { createVoiceFeature, type DashboardVoice, NO_VOICE } from './voice-feature.js';

/** Options of {@link startDashboard}. */
export interface DashboardOptions {
  /** The data folder (`MACSTATS_HOME`): schedules, sessions, transcripts, the saved settings. */
  home: string;
  /**
   * Counts answers and scheduled runs (`@macstats/observability`): `/metrics` when the app
   * serves it, and today's totals on the page (`GET /api/today`).
   */
  appMetrics?: AppMetrics | undefined;
  /** Prompts, replies and tool text in spans. Default false. */
  recordContent?: boolean | undefined;
  /**
   * The daily token budgets (`DAILY_TOKENS_PER_AGENT`, `DAILY_TOKENS_PER_CHANNEL`): each chat
   * answer and scheduled run passes it before the model is asked. Default: no budget.
   */
  tokenBudget?: DailyTokenBudget | undefined;
  /** Ollama's address and the model; without a model the first suitable one Ollama lists is used. */
  ollama: { host: string; model?: string; keepAlive?: string | number | undefined };
  /**
   * An OpenAI-compatible server (MODEL_PROVIDER=openai) instead of Ollama: the chat and the
   * schedules answer through it, and `ollama` is ignored.
   */
  openai?: { baseUrl: string; apiKey?: string | undefined; model?: string | undefined };
  /** The model's context length and the cap on the window reserved (MODEL_CONTEXT_LENGTH, MODEL_MAX_CONTEXT). */
  context?: { contextLength?: number; maxContextLength?: number };
  /** Port on 127.0.0.1; 0 picks a free one. Default 0. */
  port?: number;
  /**
   * The tools the settings build (`@macstats/app-runtime`'s `buildConfiguredTools`: FETCH_URL, BROWSER,
   * a search tool, RUN_CMD, MCP); METRICS, SCHEDULER, MEMORY and RUN_JS are added here. Default none.
   */
  tools?: Tool[];
  /** The MCP servers behind the MCP tool, for the Settings page (their withheld tools, trusting them again). */
  mcp?: McpServerSet | undefined;
  /** Sign-in of the remote MCP servers from Settings (`@macstats/app-runtime`'s `mcpSignInSurface`). */
  mcpSignIn?: McpSignInSurface | undefined;
  /** What is wrong with the MCP configuration (a bad `mcp.json` entry), shown in Settings; default none. */
  mcpProblems?: readonly string[] | undefined;
  /** The metrics collector; default: a new one, started here and stopped on close. */
  collector?: MetricsCollector;
  /**
   * Schedules, their state and history, the scheduler's leadership and conversation memory
   * shared through a database. Default: files in `home`, one host. The caller closes the database.
   */
  shared?: DashboardSharedState;
  /**
   * Where MEMORY notes are kept (shown and edited in the page, read into each chat answer):
   * with DATABASE_URL, `database.noteBackend()`, so the bot hosts and this dashboard share them.
   * Default: files in `home/memory`.
   */
  noteBackend?: NoteBackend | undefined;
  /** Run the scheduler (when no other process holds its lock). Default true. */
  scheduler?: boolean;
  /** Run the task runner (its steps run only while no other runner of the home, such as `macstats start`'s, holds its lock). Default true. */
  tasks?: boolean;
  /** Names of settings fixed by the environment (shown in Settings). Default none. */
  environmentOverrides?: string[];
  /** How long RUN_JS code may run in the page. Default 5000 ms. */
  runJsTimeoutMs?: number;
  /** The speech servers (Settings) and the microphone's transcriber (`POST /api/voice/transcribe`). Default: none set. */
  voice?: DashboardVoice | undefined;
  /** Folder of the built page. Default `dist/page`. */
  pageDir?: string;
  logger?: Logger;
}

/** A running dashboard. */
export interface Dashboard extends HttpDashboard {
  /** Checks Ollama now (sharing a check already under way) and tells the open pages if it changed. */
  checkOllama(): Promise<OllamaStatus>;
  /** The scheduler, when it runs in this process. */
  scheduler: Scheduler | undefined;
}

/**
 * Starts the whole dashboard: the local server and its security, live metrics, the chat with
 * RUN_JS in the page, settings and the Ollama banner, and the schedules with their scheduler.
 *
 * @example
 * const dashboard = await startDashboard({ home, ollama: { host: 'http://127.0.0.1:11434' } });
 * console.log(dashboard.url); // open it; it carries this launch's token
 */
export async function startDashboard(options: DashboardOptions): Promise<Dashboard> {
  const logger = options.logger ?? silentLogger;
  const { home } = options;
  const schedulesFile = join(home, 'schedules.json');
  const sessionsDir = join(home, 'sessions');
  const { shared } = options;
  // One code path for edits: the SCHEDULER tool and the page change the schedules through this.
  const scheduleSource = shared?.scheduler.source ?? createFileScheduleSource(schedulesFile);
  const readHistory = (limit: number) =>
    shared ? shared.scheduler.history.read(limit) : readRunHistory(join(home, STATE_FILES.history), limit);
  // One archive for recall, MEMORY's search, and the messages a page forgets.
  const archive =
    shared?.messageArchive ?? createMessageArchive({ dir: join(sessionsDir, ARCHIVE_FOLDER), logger });
  const memory = shared ? { store: shared.memoryStore, archive } : { dir: sessionsDir, archive };
  const ownCollector = options.collector === undefined;
  const collector = options.collector ?? createMetricsCollector({ topProcesses: 10, logger });
  if (ownCollector) collector.start();
  let checkOllama: (() => Promise<OllamaStatus>) | undefined;
  let scheduler: Scheduler | undefined;
  let taskRunner: TaskRunner | undefined;
  // The chat's agent of the current host and model, so a deleted chat leaves its memory too.
  let chatAgent: Agent | undefined;
  // The chat's tools, once the server made them: a note that calls one of them is refused.
  let toolNames: readonly string[] = [];
  const notes = createNoteStore({
    ...(options.noteBackend ? { backend: options.noteBackend } : { dir: join(home, 'memory') }),
    logger,
    toolNames: () => toolNames,
  });
  // $MACSTATS_HOME/tasks, or the database's: the chat's TASK adds to it, the Tasks view reads it.
  const taskStore = shared?.tasks ?? createTaskStore({ dir: join(home, 'tasks') });
  const tools = [
    ...(options.tools ?? []),
    // The dashboard's user owns the machine: only here may the global notes be written.
    ...createStateTools({
      logger,
      collector,
      schedules: scheduleSource,
      notes,
      archive,
      canWriteGlobal: true,
      tasks: taskStore,
    }),
  ];

  // Skills and agent profiles, read once at start; a broken one is skipped with a sentence.
  const found = await loadSkillsAndAgents(home);
  for (const problem of found.problems) logger.warn({}, problem);
  const server = await startHttpDashboard({
    logger,
    ...(options.port === undefined ? {} : { port: options.port }),
    ...(options.pageDir === undefined ? {} : { pageDir: options.pageDir }),
    ...(options.runJsTimeoutMs === undefined ? {} : { runJsTimeoutMs: options.runJsTimeoutMs }),
    features: (core) => {
      // Every tool, RUN_JS (the page's) included; each use takes its share from the catalog.
      const allTools = [...tools, core.runJs.tool];
      toolNames = offeredTo('chat', allTools).map((tool) => tool.name);
      const openai = options.openai;
      const chosen = openai ? { host: openai.baseUrl, model: openai.model } : options.ollama;
      const ollama = createOllamaFeature(core, {
        host: chosen.host,
        ...(chosen.model === undefined ? {} : { model: chosen.model }),
        ...(openai
          ? {
              probe: (host: string, model: string | undefined, signal: AbortSignal) =>
                probeOpenAi(host, model, openai.apiKey, signal),
              settingsKeys: { host: 'OPENAI_BASE_URL', model: 'OPENAI_MODEL' },
            }
          : {}),
        settingsFile: join(home, '.config.env'),
        evalReportFile: join(home, 'eval.json'),
        environmentOverrides: options.environmentOverrides ?? [],
        createAgent: ({ host, model }) => {
          chatAgent = createAgent({
            model: openai
              ? createOpenAiModel({
                  baseUrl: host,
                  apiKey: openai.apiKey,
                  model,
                  settingNames: MODEL_SETTING_NAMES.openai,
                })
              : createOllamaModel({
                  host,
                  model,
                  keepAlive: options.ollama.keepAlive,
                  settingNames: MODEL_SETTING_NAMES.ollama,
                }),
            // Scheduled runs have no page; chat answers add RUN_JS to their tools.
            tools: offeredTo('chat', tools),
            logger,
            memory,
            ...options.context,
            unavailableTools: { RUN_JS: RUN_JS_UNAVAILABLE },
            // Choosing among outside links is a channel: its bits add up per day, across restarts.
            linkChoices: appLinkChoices(home),
            ...(options.recordContent ? { telemetry: { recordContent: true } } : {}),
          });
          const counted = options.appMetrics?.observeAgent(chatAgent, { model: () => model }) ?? chatAgent;
          return options.tokenBudget?.guard(counted) ?? counted;
        },
        retireAgent: (agent) => void (agent as Agent).close?.().catch(() => {}),
      });
      checkOllama = ollama.check;
      const router = createRoleRouter({
        listModels: async () => (ollama.status().reachable ? ollama.status().models : null),
        // An OpenAI-compatible server does not say what a model can do: eval scores and names decide.
        capabilities: async (name) =>
          openai
            ? null
            : createOllamaModel({ host: ollama.status().host, model: name }).capabilities({
                model: name,
                signal: AbortSignal.timeout(3000),
              }),
        readEval: async () => (await readEvalSummary(join(home, 'eval.json')))?.models,
      });
      const agents = createDashboardAgents({ tools: allTools, found, router });
      const appMetrics = options.appMetrics;
      const metrics = createMetricsFeature(core, {
        collector,
        recorder: createInferenceRecorder(collector),
        ...(appMetrics ? { today: () => appMetrics.today() } : {}),
      });
      // One registry and one rules file for the chat's cards and Settings' list.
      const approvalsParts = {
        pending: createPendingApprovals(),
        rules: createApprovalRuleStore(join(home, APPROVAL_RULES_FILE)),
      };
      const chat = createChatFeature(core, {
        store: createConversationStore(join(home, 'desktop', 'conversations')),
        approvalRules: approvalsParts.rules,
        pendingApprovals: approvalsParts.pending,
        agent: async (id) => {
          const agent = await ollama.agent();
          return 'unavailable' in agent ? agent : agents.chat(agent as Agent, id);
        },
        tools: offeredTo('chat', allTools),
        recordCall: (event) => metrics.recordCall(event),
        onModelFailure: () => void ollama.check(), // the banner says so now, not at the next look
        ...chatMemoryActions({
          agent: () => chatAgent,
          store: () => shared?.memoryStore ?? createMemoryStore({ dir: sessionsDir, logger }),
          archive,
        }),
        context: async (conversationId) => {
          const latest = collector.latest();
          const parts = [
            latest ? `Live metrics of this computer: ${formatSummaryLine(latest)}` : '',
            formatNotes(await notes.readNotes(conversationId)),
          ].filter((part) => part !== '');
          return parts.length > 0 ? parts.join('\n\n') : undefined;
        },
      });
      const features = [
        metrics,
        ollama,
        chat,
        createNotesFeature(notes),
        createMcpFeature(options.mcp, options.mcpSignIn, logger, options.mcpProblems ?? []),
        createSkillsFeature({ found, routes: () => router.table(), home }),
        createTasksFeature(core, { store: taskStore, logger, lookMs: shared?.tasksLookMs }),
        createVoiceFeature(options.voice ?? NO_VOICE),
        createApprovalsFeature(approvalsParts),
      ];
      if (options.tasks !== false)
        taskRunner = createDashboardTaskRunner({
          store: taskStore,
          home,
          // The database's tasks are no folder to watch: this runner's changes reach the pages.
          ...(taskStore.dir ? {} : { onChange: () => core.hub.broadcast('tasks', { at: Date.now() }) }),
          tools,
          agent: () => ollama.agent(),
          found,
          router,
          logger,
        });
      if (options.scheduler !== false) {
        // Unattended runs get what the catalog gives them: a one-line task step runs its tool,
        // and the model answers the rest with neither SCHEDULER nor MEMORY (a page a task
        // fetched could plant neither a schedule nor a note for later).
        const answerSchedule = createTaskExecutor({
          tools: offeredTo('step', tools),
          agent: {
            async answer(question, answerOptions) {
              const agent = await ollama.agent();
              if ('unavailable' in agent)
                throw new MacstatsError('MODEL_UNAVAILABLE', agent.unavailable, { unreachable: true });
              // A schedule's own model must be installed; the sentence names the ones that are.
              const wanted = answerOptions?.model;
              const installed = ollama.status().models;
              if (wanted && installed.length > 0 && !installed.some((name) => sameModel(name, wanted)))
                throw new MacstatsError('MODEL_NOT_INSTALLED', modelNotInstalled(wanted, installed));
              return agents.scheduledAgent(agent as Agent).answer(question, answerOptions);
            },
          },
          // A schedule's agent: checked when it runs, answering as that profile.
          agentFor: (id) =>
            agents.has(id)
              ? {
                  async answer(question, answerOptions) {
                    const agent = await ollama.agent();
                    if ('unavailable' in agent)
                      throw new MacstatsError('MODEL_UNAVAILABLE', agent.unavailable, { unreachable: true });
                    const profile = agents.scheduled(agent as Agent, id);
                    if (!profile) throw new MacstatsError('AGENT_NOT_FOUND', `There is no agent "${id}".`);
                    return profile.answer(question, answerOptions);
                  },
                }
              : undefined,
        });
        // A schedule whose task is `TASK: add <instructions>` starts a durable task, once per run.
        const execute = withTaskStarts(answerSchedule, taskStore);
        let onEvent: Parameters<typeof createScheduler>[0]['onEvent'];
        const created = createScheduler({
          ...(shared ? shared.scheduler : { file: schedulesFile, stateDir: home }),
          execute,
          logger,
          onEvent: (event) => {
            options.appMetrics?.recordSchedulerEvent(event);
            onEvent?.(event);
          },
        });
        const schedules = createSchedulesFeature(core, {
          source: scheduleSource,
          readHistory,
          scheduler: created,
        });
        onEvent = schedules.onSchedulerEvent;
        scheduler = created;
        features.push(schedules);
      }
      return features;
    },
  });
  await scheduler?.start();
  await taskRunner?.start();

  return {
    ...server,
    checkOllama: () => checkOllama!(),
    scheduler,
    async close() {
      await scheduler?.stop();
      await taskRunner?.stop();
      await server.close();
      if (ownCollector) await collector.stop();
    },
  };
}
