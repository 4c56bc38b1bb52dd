import { createDeadline } from '@macstats/core';
import type OpenAI from 'openai';
import { OPENAI_MODEL_DEFAULTS } from './defaults.js';
import { toOpenAiError } from './openai-errors.js';

/** A model as `/v1/models` lists it, with the context length when the server says it. */
export interface OpenAiServerModel {
  id: string;
  /** vLLM's `max_model_len`, or LM Studio's and others' `context_length` / `max_context_length`. */
  contextLength: number | null;
  /**
   * Whether the model is in memory now, when the listing says so: see {@link isListedLoaded}.
   * `null` when the server does not say (LM Studio, Ollama's `/v1`, a hosted API).
   */
  loaded: boolean | null;
}

/**
 * `owned_by` values of servers that list only what they serve from memory: vLLM and SGLang list the
 * models they were started with (and their LoRA adapters), a standalone llama-server the one model
 * it loaded. Read from their sources; OpenAI's own API answers `openai` or `system` there.
 */
const SERVES_WHAT_IT_LISTS = new Set(['vllm', 'sglang', 'llamacpp']);

/**
 * Whether one `/v1/models` entry says its model is loaded. llama-server in router mode marks each
 * entry with `status.value` (`loaded`, `loading`, `unloaded`, …): only `loaded` counts. Without a
 * status, an entry from a server that serves what it lists is loaded. Anything else is unknown
 * (`null`): LM Studio lists every downloaded model while just-in-time loading is on, and Ollama's
 * `/v1/models` lists every pulled model, with no word on which are in memory.
 */
export function isListedLoaded(entry: Record<string, unknown>): boolean | null {
  const status = entry.status;
  if (status !== null && typeof status === 'object') {
    const value = (status as { value?: unknown }).value;
    if (typeof value === 'string') return value === 'loaded';
  }
  return typeof entry.owned_by === 'string' && SERVES_WHAT_IT_LISTS.has(entry.owned_by) ? true : null;
}

function positiveNumber(value: unknown): number | null {
  return typeof value === 'number' && Number.isFinite(value) && value > 0 ? Math.floor(value) : null;
}

/** Runs `work` with a signal that fires on the caller's abort or after the quick-request limit. */
export async function quickly<T>(
  signal: AbortSignal | undefined,
  timeoutMs: number,
  work: (signal: AbortSignal) => Promise<T>,
): Promise<T> {
  const deadline = createDeadline(timeoutMs);
  const merged = signal ? AbortSignal.any([signal, deadline.signal]) : deadline.signal;
  try {
    return await work(merged);
  } catch (error) {
    if (signal?.aborted) throw signal.reason;
    if (deadline.signal.aborted) throw toOpenAiError(deadline.signal.reason);
    throw toOpenAiError(error);
  } finally {
    deadline.clear();
  }
}

/** The models the server lists at `/v1/models`. Rejects with an `OPENAI_*` error. */
export async function listServerModels(
  client: OpenAI,
  options: { signal?: AbortSignal | undefined; timeoutMs?: number | undefined } = {},
): Promise<OpenAiServerModel[]> {
  return quickly(
    options.signal,
    options.timeoutMs ?? OPENAI_MODEL_DEFAULTS.quickRequestTimeoutMs,
    async (signal) => {
      const models: OpenAiServerModel[] = [];
      for await (const entry of client.models.list({ signal })) {
        const raw = entry as unknown as Record<string, unknown>;
        models.push({
          id: entry.id,
          contextLength:
            positiveNumber(raw.max_model_len) ??
            positiveNumber(raw.context_length) ??
            positiveNumber(raw.max_context_length) ??
            null,
          loaded: isListedLoaded(raw),
        });
      }
      return models;
    },
  );
}

/**
 * llama-server's own context size: `GET /props` at the server's root (beside `/v1`) reports
 * `default_generation_settings.n_ctx`. Null when the server has no such page.
 */
export async function readLlamaServerContext(
  baseUrl: string,
  options: {
    signal?: AbortSignal | undefined;
    fetch?: typeof fetch | undefined;
    apiKey?: string | undefined;
  } = {},
): Promise<number | null> {
  const root = baseUrl.replace(/\/+$/, '').replace(/\/v1$/, '');
  try {
    return await quickly(options.signal, OPENAI_MODEL_DEFAULTS.quickRequestTimeoutMs, async (signal) => {
      const response = await (options.fetch ?? fetch)(`${root}/props`, {
        signal,
        ...(options.apiKey ? { headers: { authorization: `Bearer ${options.apiKey}` } } : {}),
      });
      if (!response.ok) {
        await response.body?.cancel();
        return null;
      }
      const body = (await response.json()) as {
        default_generation_settings?: { n_ctx?: unknown };
        n_ctx?: unknown;
      };
      return positiveNumber(body.default_generation_settings?.n_ctx) ?? positiveNumber(body.n_ctx);
    });
  } catch {
    if (options.signal?.aborted) throw options.signal.reason;
    return null;
  }
}
