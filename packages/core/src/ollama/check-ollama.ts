import { AGENT_DEFAULTS, DEFAULT_OLLAMA_HOST } from '../defaults.js';
import { type ModelSettingNames, orSet } from '../model/chat-model.js';
import { withOllama } from './chat.js';
import { describeOllamaError } from './ollama-errors.js';
import { pickModel, sameModel } from './pick-model.js';

/** Options of {@link checkOllama}. */
export interface CheckOllamaOptions {
  /** Ollama base URL. Default `http://127.0.0.1:11434`. */
  host?: string | undefined;
  /** The model the app wants; when unset, the first suitable one is chosen. */
  model?: string | undefined;
  /** The app's names of the settings that fix what the check finds, for its sentences. */
  settingNames?: ModelSettingNames | undefined;
  signal?: AbortSignal | undefined;
  /** Time limit of each request, in milliseconds. Default 5000. */
  timeoutMs?: number | undefined;
}

/** What {@link checkOllama} found. */
export interface OllamaCheck {
  /** True when Ollama answered and a usable model is installed. */
  ok: boolean;
  host: string;
  reachable: boolean;
  version: string | null;
  /** Installed models, as `/api/tags` names them. */
  models: string[];
  /** The model to use: the one asked for when installed, else the first suitable one. */
  model: string | null;
  /** Whether that model has the `tools` capability (null when unknown). */
  tools: boolean | null;
  /** One sentence naming what is wrong and the fix; null when all is well. */
  problem: string | null;
}

/**
 * Checks that Ollama runs at `host` and has a usable model, for an app's start-up and health
 * page. Never throws for Ollama's problems (they come back as `problem`); rejects only on abort.
 *
 * @example
 * const check = await checkOllama({ host: 'http://127.0.0.1:11434', model: 'llama3.2:3b' });
 * if (!check.ok) logger.warn({ host: check.host }, check.problem);
 */
export async function checkOllama(options: CheckOllamaOptions = {}): Promise<OllamaCheck> {
  const host = options.host ?? DEFAULT_OLLAMA_HOST;
  const request = {
    signal: options.signal,
    timeoutMs: options.timeoutMs ?? AGENT_DEFAULTS.quickRequestTimeoutMs,
  };
  const result: OllamaCheck = {
    ok: false,
    host,
    reachable: false,
    version: null,
    models: [],
    model: null,
    tools: null,
    problem: null,
  };
  try {
    result.version = (await withOllama(host, request, (client) => client.version())).version;
    result.reachable = true;
    const listed = (await withOllama(host, request, (client) => client.list())).models;
    result.models = listed.map((model) => model.name);
  } catch (error) {
    if (options.signal?.aborted) throw options.signal.reason;
    result.problem = describeOllamaError(error, {
      host,
      ...(options.model ? { model: options.model } : {}),
      settings: options.settingNames,
    });
    return result;
  }

  const capabilities = async (name: string) => {
    try {
      return (await withOllama(host, request, (client) => client.show({ model: name }))).capabilities ?? [];
    } catch {
      if (options.signal?.aborted) throw options.signal.reason;
      return undefined;
    }
  };

  if (options.model) {
    const wanted = options.model;
    const installed = result.models.find((name) => sameModel(name, wanted));
    if (!installed) {
      const have = result.models.length > 0 ? ` (installed: ${result.models.slice(0, 5).join(', ')})` : '';
      result.problem = `The model "${wanted}" is not installed in Ollama: run \`ollama pull ${wanted}\`${orSet(options.settingNames?.model, 'to a model you have')}${have}.`;
      return result;
    }
    result.model = installed;
    const found = await capabilities(installed);
    result.tools = found ? found.includes('tools') : null;
  } else {
    const described = await Promise.all(
      result.models.slice(0, 20).map(async (name) => {
        const found = await capabilities(name);
        return found ? { name, capabilities: found } : { name };
      }),
    );
    result.model = pickModel(described) ?? null;
    if (!result.model) {
      result.problem =
        result.models.length === 0
          ? 'Ollama has no models yet: run `ollama pull llama3.2:3b` (or another chat model) and try again.'
          : 'Ollama has only embedding models, which cannot chat: run `ollama pull llama3.2:3b` (or another chat model).';
      return result;
    }
    const chosen = described.find((model) => model.name === result.model);
    result.tools =
      chosen && 'capabilities' in chosen ? (chosen.capabilities?.includes('tools') ?? null) : null;
  }
  result.ok = true;
  return result;
}
