import { MODEL_SETTING_NAMES } from '@macstats/app-config';
import {
  type ChatModel,
  createModelPool,
  createOllamaPoolMember,
  type Logger,
  type ModelCapabilities,
  type ModelPool,
} from '@macstats/core';
import { createOpenAiPoolMember } from '@macstats/model-openai';
import type { AgentWrapper } from './agent-wrappers.js';
import { createInstalledModels } from './installed-models.js';
import { createModelResolver, type ModelLookup, withModel } from './model-resolver.js';
import {
  checkModelServer,
  createChatModel,
  type ModelServerCheck,
  type ModelSettings,
  poolServers,
} from './model-server.js';

/** How long one look at the server (the model list, a model's capabilities) may take, in milliseconds. */
export const MODEL_LOOKUP_TIMEOUT_MS = 3000;

/** Options of {@link createModelSide}. */
export interface ModelSideOptions {
  /** What {@link checkModelServer} said at start-up: the model it found, if any. */
  server: ModelServerCheck;
  /** Where the pool logs a server going down and coming back. */
  logger: Logger;
  /** Clock in milliseconds for the retries and the installed list's age. Default `Date.now`. */
  now?: (() => number) | undefined;
}

/** The model an app answers with for as long as it runs, and what it asks the server. */
export interface ModelSide {
  /** The chat model the app's agent answers with: the pool over several servers, else the one server's. */
  chat: ChatModel;
  /** The model known now (OLLAMA_MODEL, the one found, else `FALLBACK_MODEL`), without asking the server. */
  known(): string;
  /**
   * The `model` wrapper, to go innermost around the app's agent: each answer that names no model
   * gets the one known, picked again once the server is up when it was down at start-up; a model
   * an answer names (a channel's, a schedule's) that is not installed ends the answer with the
   * sentence naming the installed ones, before any request.
   */
  wrapper: AgentWrapper;
  /** The chat models the servers have now; null when none answers. */
  listModels(): Promise<string[] | null>;
  /** What `model` can do, as the server says (the role router asks). */
  capabilities(model: string): Promise<ModelCapabilities>;
  /** Stops the pool's health checks. */
  close(): void;
}

/**
 * Several servers of the configured provider (`OLLAMA_HOSTS`, `OPENAI_BASE_URLS`) as one pool:
 * loaded first, then least busy; a server that fails is routed around. One server: no pool.
 */
function createPool(settings: ModelSettings, model: string, logger: Logger): ModelPool | undefined {
  const servers = poolServers(settings);
  if (!servers) return undefined;
  if (settings.modelProvider === 'openai') {
    return createModelPool({
      members: servers.map((baseUrl) =>
        createOpenAiPoolMember({
          baseUrl,
          apiKey: settings.openaiApiKey,
          model,
          settingNames: MODEL_SETTING_NAMES.openaiPool,
        }),
      ),
      logger,
    });
  }
  return createModelPool({
    members: servers.map((host) =>
      createOllamaPoolMember({
        host,
        model,
        keepAlive: settings.ollamaKeepAlive,
        settingNames: MODEL_SETTING_NAMES.ollamaPool,
      }),
    ),
    logger,
  });
}

/**
 * The model side of an app whose model is fixed at start (`macstats start`, `ask`): the model
 * resolver, the pool over several servers, the check of a model an answer names, and what the
 * role router asks. Resolves once the pool knows which server has which model, so an agent's
 * model (or a role's) goes to a server that has it from the start; it resolves when the server
 * is down too (the model is then picked again once it is up).
 *
 * @example
 * const server = await checkModelServer(config, { signal });
 * const model = await createModelSide(config, { server, logger });
 * const agent = createAppAgent({ model: model.chat, ... });
 * createAppRuntime({ agent, wrappers: [model.wrapper, ...appAgentWrappers({ model: model.known })], ... });
 */
export async function createModelSide(
  settings: ModelSettings,
  options: ModelSideOptions,
): Promise<ModelSide> {
  const listModels = async () => {
    const found = await checkModelServer(settings, { signal: AbortSignal.timeout(MODEL_LOOKUP_TIMEOUT_MS) });
    return found.reachable ? found.models : null;
  };
  const lookup: ModelLookup = async () =>
    (
      await checkModelServer(settings, { signal: AbortSignal.timeout(MODEL_LOOKUP_TIMEOUT_MS) }).catch(
        () => undefined,
      )
    )?.model ?? null;
  const now = options.now ? { now: options.now } : {};
  const resolver = createModelResolver({
    configured: settings.modelProvider === 'openai' ? settings.openaiModel : settings.ollamaModel,
    initial: options.server.model,
    lookup,
    ...now,
  });
  const pool = createPool(settings, resolver.known, options.logger);
  // Each check is bounded by the pool's own time limit.
  await pool?.checkHealth();
  const installed = createInstalledModels({ list: listModels, ...now });
  const chat = pool ?? createChatModel(settings, resolver.known);
  return {
    chat,
    known: () => resolver.known,
    wrapper: {
      name: 'model',
      wrap: (agent) =>
        withModel(
          agent,
          () => resolver.current(),
          (name) => installed.problem(name),
        ),
    },
    listModels,
    capabilities: (model) =>
      chat.capabilities({ model, signal: AbortSignal.timeout(MODEL_LOOKUP_TIMEOUT_MS) }),
    close: () => pool?.close(),
  };
}
