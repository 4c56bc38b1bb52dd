import { MODEL_SETTING_NAMES } from '@macstats/app-config';
import { type ChatModel, checkOllama, createOllamaModel, DEFAULT_OLLAMA_HOST } from '@macstats/core';
import { checkOpenAi, createOpenAiModel } from '@macstats/model-openai';

/** Which kind of server answers: Ollama, or an OpenAI-compatible one (`MODEL_PROVIDER`). */
export type ModelProvider = 'ollama' | 'openai';

/**
 * The model settings as the apps read them (the bot's `AppConfig` has these fields by these
 * names; the dashboard fills them from its options and Settings' choice).
 */
export interface ModelSettings {
  /** `MODEL_PROVIDER`: `ollama` or `openai`. */
  modelProvider: ModelProvider;
  /** `OLLAMA_HOST`. Default core's `DEFAULT_OLLAMA_HOST`. */
  ollamaHost?: string | undefined;
  /** `OLLAMA_HOSTS`: several Ollama servers answering as one pool. Default none: `ollamaHost` alone. */
  ollamaHosts?: readonly string[] | undefined;
  /** `OLLAMA_MODEL`; unset, the first suitable model Ollama lists is picked. */
  ollamaModel?: string | undefined;
  /** `OLLAMA_KEEP_ALIVE`: how long Ollama keeps the model loaded. Default Ollama's. */
  ollamaKeepAlive?: string | number | undefined;
  /** `OPENAI_BASE_URL`: the OpenAI-compatible API's address. */
  openaiBaseUrl?: string | undefined;
  /** `OPENAI_BASE_URLS`: several OpenAI-compatible servers answering as one pool. Default none. */
  openaiBaseUrls?: readonly string[] | undefined;
  /** `OPENAI_API_KEY`. */
  openaiApiKey?: string | undefined;
  /** `OPENAI_MODEL`; unset, the first model the server lists. */
  openaiModel?: string | undefined;
}

/** What a model server said, whichever provider it is. */
export interface ModelServerCheck {
  /** True when the server answered and a usable model is there. */
  ok: boolean;
  /** True when the server answered at all. */
  reachable: boolean;
  /** `ollama` or `openai`. */
  provider: ModelProvider;
  /** Where the server is: OLLAMA_HOST or OPENAI_BASE_URL. */
  url: string;
  /** The model to use, when one was found. */
  model: string | null;
  /** The models the server has. */
  models: string[];
  /** Whether the model has native tool calling (null when unknown: an OpenAI-compatible server does not say). */
  tools: boolean | null;
  /** Ollama's version; null for an OpenAI-compatible server or one that did not answer. */
  version: string | null;
  /** The model's context length as an OpenAI-compatible server reports it; null when unknown. */
  contextLength: number | null;
  /** One sentence naming what is wrong and the fix; null when all is well. */
  problem: string | null;
}

/** Options of {@link checkModelServer} and {@link checkModelServerAt}. */
export interface ModelServerCheckOptions {
  signal?: AbortSignal | undefined;
  /** Ollama: how long each request of the check may take. Default core's (`AGENT_DEFAULTS.quickRequestTimeoutMs`). */
  timeoutMs?: number | undefined;
}

/** The sentence for MODEL_PROVIDER=openai without a base URL. */
export const OPENAI_BASE_URL_MISSING =
  "MODEL_PROVIDER=openai needs OPENAI_BASE_URL, the server's API address such as http://127.0.0.1:8080/v1 (llama-server) or http://127.0.0.1:1234/v1 (LM Studio).";

/** The servers of the configured provider: the pool's list, else the one address. */
function serversOf(settings: ModelSettings): string[] {
  if (settings.modelProvider === 'openai') {
    const urls = settings.openaiBaseUrls ?? [];
    return urls.length > 0 ? [...urls] : settings.openaiBaseUrl ? [settings.openaiBaseUrl] : [];
  }
  const hosts = settings.ollamaHosts ?? [];
  return hosts.length > 0 ? [...hosts] : [settings.ollamaHost ?? DEFAULT_OLLAMA_HOST];
}

/**
 * The servers of the provider that answer as one pool (`OLLAMA_HOSTS`, `OPENAI_BASE_URLS`), or
 * null when the settings list fewer than two: one server is no pool.
 */
export function poolServers(settings: ModelSettings): readonly string[] | null {
  const listed = (settings.modelProvider === 'openai' ? settings.openaiBaseUrls : settings.ollamaHosts) ?? [];
  return listed.length > 1 ? listed : null;
}

/**
 * Checks the configured model server (Ollama or OpenAI-compatible); never throws for its problems,
 * rejects only when `signal` aborts. With several servers (OLLAMA_HOSTS, OPENAI_BASE_URLS) all are
 * asked at once and the first, in the list's order, that serves the model answers for the pool,
 * listing the models of every server that answered: one server down is not a problem while
 * another serves (the pool routes around it), and a model on any server is installed.
 *
 * @example
 * const server = await checkModelServer(config, { signal: AbortSignal.timeout(3000) });
 * if (server.problem) logger.warn({ url: server.url }, server.problem);
 */
export async function checkModelServer(
  settings: ModelSettings,
  options: ModelServerCheckOptions = {},
): Promise<ModelServerCheck> {
  if (settings.modelProvider === 'openai' && !settings.openaiBaseUrl)
    return { ...unanswered('openai', ''), problem: OPENAI_BASE_URL_MISSING };
  const each = await Promise.all(
    serversOf(settings).map((url) => checkModelServerAt(settings, url, options)),
  );
  return pooled(each);
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

/**
 * One server of the configured provider at `url` (a host of OLLAMA_HOSTS, a URL of
 * OPENAI_BASE_URLS): `doctor` prints a line per server. Its sentences name the pool's settings
 * when `pool` is true (default: when the settings list several servers). Rejects only on abort.
 */
export async function checkModelServerAt(
  settings: ModelSettings,
  url: string,
  options: ModelServerCheckOptions & { pool?: boolean | undefined } = {},
): Promise<ModelServerCheck> {
  const pool = options.pool ?? poolServers(settings) !== null;
  if (settings.modelProvider === 'openai') {
    const found = await checkOpenAi({
      baseUrl: url,
      apiKey: settings.openaiApiKey,
      model: settings.openaiModel,
      signal: options.signal,
      settingNames: pool ? MODEL_SETTING_NAMES.openaiPool : MODEL_SETTING_NAMES.openai,
    });
    // An OpenAI-compatible server does not say whether it takes tools: the first request tells.
    return {
      ...unanswered('openai', url),
      ok: found.ok,
      reachable: found.reachable,
      model: found.model,
      models: found.models,
      contextLength: found.contextLength,
      problem: found.problem,
    };
  }
  const found = await checkOllama({
    host: url,
    ...(settings.ollamaModel ? { model: settings.ollamaModel } : {}),
    ...(options.signal ? { signal: options.signal } : {}),
    ...(options.timeoutMs === undefined ? {} : { timeoutMs: options.timeoutMs }),
    settingNames: pool ? MODEL_SETTING_NAMES.ollamaPool : MODEL_SETTING_NAMES.ollama,
  });
  return {
    ...unanswered('ollama', url),
    ok: found.ok,
    reachable: found.reachable,
    model: found.model,
    models: found.models,
    tools: found.tools,
    version: found.version,
    problem: found.problem,
  };
}

/** A check of a server that has not answered (yet). */
function unanswered(provider: ModelProvider, url: string): ModelServerCheck {
  return {
    ok: false,
    reachable: false,
    provider,
    url,
    model: null,
    models: [],
    tools: null,
    version: null,
    contextLength: null,
    problem: null,
  };
}

/**
 * The chat model of the configured server (the first of a pool) for `model`: what `macstats eval`
 * scores, what `doctor` and Discord ask a model's capabilities of, what the dashboard's chat
 * answers with for the host and model Settings chose ({@link modelSettingsAt}).
 */
export function createChatModel(settings: ModelSettings, model: string): ChatModel {
  if (settings.modelProvider === 'openai')
    return createOpenAiModel({
      baseUrl: settings.openaiBaseUrl ?? 'http://127.0.0.1:8080/v1',
      apiKey: settings.openaiApiKey,
      model,
      settingNames: MODEL_SETTING_NAMES.openai,
    });
  return createOllamaModel({
    host: settings.ollamaHost ?? DEFAULT_OLLAMA_HOST,
    model,
    keepAlive: settings.ollamaKeepAlive,
    settingNames: MODEL_SETTING_NAMES.ollama,
  });
}

/** `settings` pointed at one server, `host`, and `model` on it: the dashboard's Settings choice. */
export function modelSettingsAt(
  settings: ModelSettings,
  host: string,
  model: string | undefined,
): ModelSettings {
  return settings.modelProvider === 'openai'
    ? { ...settings, openaiBaseUrl: host, openaiBaseUrls: [], openaiModel: model }
    : { ...settings, ollamaHost: host, ollamaHosts: [], ollamaModel: model };
}
