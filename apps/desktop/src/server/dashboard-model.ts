import { join } from 'node:path';
import { MODEL_SETTING_NAMES } from '@macstats/app-config';
import {
  type AppRuntime,
  appAgentWrappers,
  type CurrentAgent,
  createAppAgent,
  createAppRuntime,
} from '@macstats/app-runtime';
import { type Agent, type ChatModel, createOllamaModel } from '@macstats/core';
import { createOpenAiModel } from '@macstats/model-openai';
import { createRoleRouter, type RoleRouter, type SkillsAndAgents } from '@macstats/skills';
import type { DashboardOptions } from './dashboard-options.js';
import type { DashboardState } from './dashboard-state.js';
import { readEvalSummary } from './eval-summary.js';
import { createOllamaFeature } from './ollama-feature.js';
import { probeOpenAi } from './ollama-probe.js';
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

/** The chat model of the server Settings chose. */
function chatModel(options: DashboardOptions, host: string, model: string): ChatModel {
  const { openai } = options;
  return openai
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
      });
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
  let chatAgent: Agent | undefined;
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
      // Its own tools are the chat's; scheduled runs and task steps are given theirs per answer.
      chatAgent = createAppAgent({
        model: chatModel(options, host, model),
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
        : createOllamaModel({ host: ollama.status().host, model: name }).capabilities({
            model: name,
            signal: AbortSignal.timeout(3000),
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
      metrics: options.appMetrics,
      model: () => ollama.status().model ?? undefined,
      tokenBudget: options.tokenBudget,
    }),
  });
  return { ollama, router, runtime, chatAgent: () => chatAgent };
}
