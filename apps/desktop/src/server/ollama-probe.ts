import { MODEL_SETTING_NAMES } from '@macstats/app-config';
import { checkOllama } from '@macstats/core';
import { checkOpenAi } from '@macstats/model-openai';
import type { OllamaStatus } from '../shared/ollama-types.js';

export type { OllamaStatus } from '../shared/ollama-types.js';

/** Default time each request of a probe may take. */
export const PROBE_TIMEOUT_MS = 3000;

/**
 * Checks Ollama with core's `checkOllama` and keeps what the page shows. Never throws for
 * Ollama's problems; rejects only when `signal` aborts.
 */
export async function probeOllama(
  host: string,
  chosenModel: string | undefined,
  signal?: AbortSignal,
  timeoutMs = PROBE_TIMEOUT_MS,
): Promise<OllamaStatus> {
  const checkedAt = Date.now();
  const check = await checkOllama({
    host,
    timeoutMs,
    settingNames: MODEL_SETTING_NAMES.ollama,
    ...(chosenModel === undefined ? {} : { model: chosenModel }),
    ...(signal === undefined ? {} : { signal }),
  });
  const status: OllamaStatus = {
    host,
    model: check.ok ? check.model : (chosenModel ?? null),
    reachable: check.reachable,
    models: check.models,
    tools: check.tools,
    checkedAt,
  };
  if (check.version !== null) status.version = check.version;
  if (check.problem !== null) status.problem = check.problem;
  return status;
}

/**
 * Checks an OpenAI-compatible server with `checkOpenAi` (reachable, model listed) and keeps what
 * the page shows, in the same shape as Ollama's status. Rejects only when `signal` aborts.
 */
export async function probeOpenAi(
  baseUrl: string,
  chosenModel: string | undefined,
  apiKey: string | undefined,
  signal?: AbortSignal,
): Promise<OllamaStatus> {
  const checkedAt = Date.now();
  const check = await checkOpenAi({
    baseUrl,
    apiKey,
    model: chosenModel,
    signal,
    settingNames: MODEL_SETTING_NAMES.openai,
  });
  const status: OllamaStatus = {
    provider: 'openai',
    host: baseUrl,
    model: check.ok ? check.model : (chosenModel ?? null),
    reachable: check.reachable,
    models: check.models,
    // The server does not say; the first request with tools tells, and the agent falls back.
    tools: null,
    checkedAt,
  };
  if (check.problem !== null) status.problem = check.problem;
  return status;
}
