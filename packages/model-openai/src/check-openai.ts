import type { ModelSettingNames } from '@macstats/core';
import { describeOpenAiError } from './openai-errors.js';
import { createOpenAiModel } from './openai-model.js';
import type { OpenAiServerModel } from './server-info.js';

/** Options of {@link checkOpenAi}. */
export interface CheckOpenAiOptions {
  /** The API's base URL, e.g. `http://127.0.0.1:8080/v1`. */
  baseUrl: string;
  apiKey?: string | undefined;
  /** The model the app wants; when unset, the first one the server lists. */
  model?: string | undefined;
  /** The app's names of the settings that fix what the check finds, for its sentences. */
  settingNames?: ModelSettingNames | undefined;
  signal?: AbortSignal | undefined;
  fetch?: typeof fetch | undefined;
}

/** What {@link checkOpenAi} found. */
export interface OpenAiCheck {
  /** True when the server answered and lists the model. */
  ok: boolean;
  baseUrl: string;
  reachable: boolean;
  /** The models the server lists at `/v1/models`. */
  models: string[];
  /** The model to use: the one asked for when listed, else the first listed. */
  model: string | null;
  /** The model's context length as the server reports it, when it does. */
  contextLength: number | null;
  /** One sentence naming what is wrong and the fix; null when all is well. */
  problem: string | null;
}

/**
 * Checks that an OpenAI-compatible server answers at `baseUrl` and lists the model, for an app's
 * start-up and `doctor`. Never throws for the server's problems; rejects only on abort.
 *
 * @example
 * const check = await checkOpenAi({ baseUrl: 'http://127.0.0.1:8080/v1', model: 'qwen3-4b' });
 * if (!check.ok) logger.warn({ baseUrl: check.baseUrl }, check.problem);
 */
export async function checkOpenAi(options: CheckOpenAiOptions): Promise<OpenAiCheck> {
  const result: OpenAiCheck = {
    ok: false,
    baseUrl: options.baseUrl,
    reachable: false,
    models: [],
    model: null,
    contextLength: null,
    problem: null,
  };
  const model = createOpenAiModel({
    baseUrl: options.baseUrl,
    apiKey: options.apiKey,
    model: options.model ?? 'unset',
    ...(options.fetch ? { fetch: options.fetch } : {}),
  });
  let listed: OpenAiServerModel[];
  try {
    listed = await model.listModels(options.signal ? { signal: options.signal } : {});
  } catch (error) {
    if (options.signal?.aborted) throw options.signal.reason;
    result.problem = describeOpenAiError(error, {
      baseUrl: options.baseUrl,
      model: options.model,
      settings: options.settingNames,
    });
    return result;
  }
  result.reachable = true;
  result.models = listed.map((entry) => entry.id);
  const wanted = options.model ?? result.models[0];
  if (wanted === undefined) {
    result.problem = `The server at ${options.baseUrl} lists no models: load one there (llama-server -m, LM Studio, vLLM --model) and try again.`;
    return result;
  }
  if (!result.models.includes(wanted)) {
    const have = result.models.slice(0, 8).join(', ');
    result.problem = `The server at ${options.baseUrl} does not list the model "${wanted}": ${options.settingNames?.model ? `set ${options.settingNames.model} to` : 'choose'} one it serves (${have}).`;
    return result;
  }
  result.model = wanted;
  const capabilities = await model
    .capabilities({ model: wanted, ...(options.signal ? { signal: options.signal } : {}) })
    .catch(() => {
      if (options.signal?.aborted) throw options.signal.reason;
      return null;
    });
  result.contextLength = capabilities?.contextLength ?? null;
  result.ok = true;
  return result;
}
