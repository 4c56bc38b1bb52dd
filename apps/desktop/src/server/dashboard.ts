import { join } from 'node:path';
import {
  APPROVAL_RULES_FILE,
  createApprovalRuleStore,
  createMemoryStore,
  createSharedPendingApprovals,
  PENDING_APPROVALS_DIR,
  type SharedPendingApprovals,
  silentLogger,
} from '@macstats/core';
import { createInferenceRecorder, formatSummaryLine } from '@macstats/metrics';
import type { Scheduler, SchedulerEvent } from '@macstats/scheduler';
import { loadSkillsAndAgents } from '@macstats/skills';
import type { TaskRunner } from '@macstats/tasks';
import { createApprovalsFeature } from './approvals-feature.js';
import { createChatFeature } from './chat-feature.js';
import { chatMemoryActions } from './chat-memory.js';
import { createConversationStore } from './conversation-store.js';
import { createDashboardModel, type DashboardModel } from './dashboard-model.js';
import type { Dashboard, DashboardOptions } from './dashboard-options.js';
import { type DashboardState, openDashboardState } from './dashboard-state.js';
import { createDashboardTaskRunner } from './dashboard-tasks.js';
import { createMcpFeature } from './mcp-feature.js';
import { createMetricsFeature } from './metrics-feature.js';
import { createNotesFeature } from './notes-feature.js';
import { createSchedulesFeature } from './schedules-feature.js';
import { createSkillsFeature } from './skills-feature.js';
import { type DashboardCore, type DashboardFeature, startHttpDashboard } from './start-dashboard.js';
import { createTasksFeature } from './tasks-feature.js';
import { createVoiceFeature, NO_VOICE } from './voice-feature.js';

export type { Dashboard, DashboardOptions } from './dashboard-options.js';

/**
 * Starts the whole dashboard: the local server and its security, live metrics, the chat with
 * RUN_JS in the page, settings and the Ollama banner, and the schedules with their scheduler.
 * Every agent comes from the runtime (`@macstats/app-runtime`), which the model side makes.
 *
 * @example
 * const dashboard = await startDashboard({ home, ollama: { host: 'http://127.0.0.1:11434' } });
 * console.log(dashboard.url); // open it; it carries this launch's token
 */
export async function startDashboard(options: DashboardOptions): Promise<Dashboard> {
  const logger = options.logger ?? silentLogger;
  const state = openDashboardState(options, logger);
  if (state.ownCollector) state.collector.start();
  let model: DashboardModel | undefined;
  let scheduler: Scheduler | undefined;
  let taskRunner: TaskRunner | undefined;
  // The cards waiting in every process on this data folder (`macstats start`'s bot among them):
  // listed in Settings and answerable here, and this dashboard's cards answerable there.
  const pending = createSharedPendingApprovals({ dir: join(options.home, PENDING_APPROVALS_DIR), logger });
  // Skills and agent profiles, read once at start; a broken one is skipped with a sentence.
  const found = await loadSkillsAndAgents(options.home);
  for (const problem of found.problems) logger.warn({}, problem);
  const server = await startHttpDashboard({
    logger,
    ...(options.port === undefined ? {} : { port: options.port }),
    ...(options.pageDir === undefined ? {} : { pageDir: options.pageDir }),
    ...(options.runJsTimeoutMs === undefined ? {} : { runJsTimeoutMs: options.runJsTimeoutMs }),
    features: (core) => {
      model = createDashboardModel(core, options, state, found);
      state.setToolNames(model.runtime.toolsFor('chat').map((tool) => tool.name));
      const features = [
        ...modelFeatures(core, options, state, model, pending),
        createNotesFeature(state.notes),
        createMcpFeature(options.mcp, options.mcpSignIn, logger, options.mcpProblems ?? []),
        createSkillsFeature({ found, routes: () => model!.router.table(), home: options.home }),
        createTasksFeature(core, { store: state.taskStore, logger, lookMs: options.shared?.tasksLookMs }),
        createVoiceFeature(options.voice ?? NO_VOICE, options.tokenBudget),
      ];
      if (options.tasks !== false)
        taskRunner = createDashboardTaskRunner({
          runtime: model.runtime,
          store: state.taskStore,
          home: options.home,
          // The database's tasks are no folder to watch: this runner's changes reach the pages.
          ...(state.taskStore.dir ? {} : { onChange: () => core.hub.broadcast('tasks', { at: Date.now() }) }),
          logger,
        });
      if (options.scheduler !== false) {
        const schedules = schedulesFeature(core, options, state, model);
        scheduler = schedules.scheduler;
        features.push(schedules.feature);
      }
      return features;
    },
  });
  await scheduler?.start();
  await taskRunner?.start();

  return {
    ...server,
    checkOllama: () => model!.ollama.check(),
    scheduler,
    async close() {
      await scheduler?.stop();
      await taskRunner?.stop();
      await server.close();
      pending.close();
      if (state.ownCollector) await state.collector.stop();
    },
  };
}

/** Live metrics, the Ollama banner and Settings, and the chat, whose agents the runtime gives. */
function modelFeatures(
  core: DashboardCore,
  options: DashboardOptions,
  state: DashboardState,
  model: DashboardModel,
  pending: SharedPendingApprovals,
): DashboardFeature[] {
  const { appMetrics, home, shared } = options;
  const { collector, logger } = state;
  const metrics = createMetricsFeature(core, {
    collector,
    recorder: createInferenceRecorder(collector),
    ...(appMetrics ? { today: () => appMetrics.today() } : {}),
  });
  // One registry and one rules file for the chat's cards and Settings' list.
  const approvals = { pending, rules: createApprovalRuleStore(join(home, APPROVAL_RULES_FILE)) };
  const chat = createChatFeature(core, {
    store: createConversationStore(join(home, 'desktop', 'conversations')),
    approvalRules: approvals.rules,
    pendingApprovals: approvals.pending,
    agent: (id) => model.runtime.current('chat', id),
    tools: model.runtime.toolsFor('chat'),
    recordCall: (event) => metrics.recordCall(event),
    onModelFailure: () => void model.ollama.check(), // the banner says so now, not at the next look
    ...chatMemoryActions({
      agent: () => model.chatAgent(),
      store: () => shared?.memoryStore ?? createMemoryStore({ dir: state.sessionsDir, logger }),
      archive: state.archive,
    }),
    // The live metrics; the conversation's notes follow them, read by the root's `notes` layer.
    context: () => {
      const latest = collector.latest();
      return latest ? `Live metrics of this computer: ${formatSummaryLine(latest)}` : undefined;
    },
  });
  return [
    metrics,
    model.ollama,
    chat,
    createApprovalsFeature({ ...approvals, broadcast: (event, data) => core.hub.broadcast(event, data) }),
  ];
}

/**
 * The Schedules view and the runtime's scheduler: a one-line task step runs its tool, and the
 * model answers the rest with neither SCHEDULER nor MEMORY (a page a task fetched could plant
 * neither a schedule nor a note for later); `TASK: add …` starts a durable task, once per run.
 */
function schedulesFeature(
  core: DashboardCore,
  options: DashboardOptions,
  state: DashboardState,
  model: DashboardModel,
): { feature: DashboardFeature; scheduler: Scheduler } {
  const { shared } = options;
  let onEvent: ((event: SchedulerEvent) => void) | undefined;
  const scheduler = model.runtime.createScheduler(
    {
      ...(shared ? shared.scheduler : { file: state.schedulesFile, stateDir: options.home }),
      logger: state.logger,
      onEvent: (event) => {
        options.appMetrics?.recordSchedulerEvent(event);
        onEvent?.(event);
      },
    },
    state.taskStore,
  );
  const feature = createSchedulesFeature(core, {
    source: state.scheduleSource,
    readHistory: state.readHistory,
    scheduler,
  });
  onEvent = feature.onSchedulerEvent;
  return { feature, scheduler };
}
