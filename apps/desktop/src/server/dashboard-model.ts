import { join } from 'node:path';
import {
  type AppRuntime,
  appAgentWrappers,
  type CurrentAgent,
  createAppAgent,
  createAppRuntime,
  createChatModel,
  MODEL_LOOKUP_TIMEOUT_MS,
  type ModelSettings,
  modelSettingsAt,
} from '@macstats/app-runtime';
import type { Agent } from '@macstats/core';
import { createRoleRouter, type RoleRouter, type SkillsAndAgents } from '@macstats/skills';
import type { DashboardOptions } from './dashboard-options.js';
import type { DashboardState } from './dashboard-state.js';
import { readEvalSummary } from './eval-summary.js';
import { probeModelServer } from './model-probe.js';
import { createOllamaFeature } from './ollama-feature.js';
import type { DashboardCore } from './start-dashboard.js';

/** The dashboard's model side: Settings' host and model, the role router, and the runtime every surface asks. */
export interface DashboardModel {
  ollama: ReturnType<typeof createOllamaFeature>;
  router: RoleRouter;
  /** The composition root: the chat, the schedules and the task steps ask it for their agents. */
  runtime: AppRuntime;
  /** The chat's core agent of the current host and model, so a deleted chat leaves its memory too. */
  chatAgent(): Agent | undefined;
}

/** The dashboard's model settings as it was started with them; Settings then choose the host and model. */
function modelSettingsOf(options: DashboardOptions): ModelSettings {
  const { openai, ollama } = options;
  return openai
    ? {
        modelProvider: 'openai',
        openaiBaseUrl: openai.baseUrl,
        openaiApiKey: openai.apiKey,
        openaiModel: openai.model,
      }
    : {
        modelProvider: 'ollama',
        ollamaHost: ollama.host,
        ollamaModel: ollama.model,
        ollamaKeepAlive: ollama.keepAlive,
      };
}

/**
 * The Ollama (or OpenAI-compatible) feature that makes the chat's agent for the host and model
 * Settings chose, and the runtime over it: every tool, RUN_JS (the page's) included, each use
 * taking its share from the catalog, every answer through the app's wrappers.
 */
export function createDashboardModel(
  core: DashboardCore,
  options: DashboardOptions,
  state: DashboardState,
  found: SkillsAndAgents,
): DashboardModel {
  const { home } = options;
  const { logger } = state;
  const openai = options.openai;
  const chosen = openai ? { host: openai.baseUrl, model: openai.model } : options.ollama;
  // The root's model side, pointed at the host and model Settings choose.
  const settings = modelSettingsOf(options);
  const at = (host: string, model: string | undefined) => modelSettingsAt(settings, host, model);
  let chatAgent: Agent | undefined;
  const ollama = createOllamaFeature(core, {
    host: chosen.host,
    ...(chosen.model === undefined ? {} : { model: chosen.model }),
    probe: (host, model, signal) => probeModelServer(at(host, model), signal),
    ...(openai ? { settingsKeys: { host: 'OPENAI_BASE_URL', model: 'OPENAI_MODEL' } } : {}),
    settingsFile: join(home, '.config.env'),
    evalReportFile: join(home, 'eval.json'),
    environmentOverrides: options.environmentOverrides ?? [],
    createAgent: ({ host, model }) => {
      // Its own tools are the chat's; scheduled runs and task steps are given theirs per answer.
      chatAgent = createAppAgent({
        model: createChatModel(at(host, model), model),
        tools: state.tools,
        logger,
        memory: state.memory,
        ...options.context,
        home,
        recordContent: options.recordContent,
      });
      return chatAgent;
    },
    retireAgent: (agent) => void (agent as Agent).close?.().catch(() => {}),
  });
  const router = createRoleRouter({
    listModels: async () => (ollama.status().reachable ? ollama.status().models : null),
    // An OpenAI-compatible server does not say what a model can do: eval scores and names decide.
    capabilities: async (name) =>
      openai
        ? null
        : createChatModel(at(ollama.status().host, name), name).capabilities({
            model: name,
            signal: AbortSignal.timeout(MODEL_LOOKUP_TIMEOUT_MS),
          }),
    readEval: async () => (await readEvalSummary(join(home, 'eval.json')))?.models,
  });
  const runtime = createAppRuntime({
    tools: [...state.tools, core.runJs.tool],
    skills: found,
    modelFor: (profile) => router.modelFor(profile),
    agent: async () => (await ollama.agent()) as CurrentAgent,
    installedModels: () => ollama.status().models,
    wrappers: appAgentWrappers({
      notes: state.notes,
      metrics: options.appMetrics,
      model: () => ollama.status().model ?? undefined,
      tokenBudget: options.tokenBudget,
    }),
  });
  return { ollama, router, runtime, chatAgent: () => chatAgent };
}
