import { checkModelServer, type ModelSettings } from '@macstats/app-runtime';
import type { OllamaStatus } from '../shared/ollama-types.js';

export type { OllamaStatus } from '../shared/ollama-types.js';

/** Default time each request of a probe may take (Ollama's; an OpenAI-compatible server's check has its own). */
export const PROBE_TIMEOUT_MS = 3000;

/**
 * Checks the server Settings chose (Ollama, or the OpenAI-compatible one) with the composition
 * root's `checkModelServer` and keeps what the page shows. Never throws for the server's
 * problems; rejects only when `signal` aborts.
 */
export async function probeModelServer(
  settings: ModelSettings,
  signal?: AbortSignal,
  timeoutMs = PROBE_TIMEOUT_MS,
): Promise<OllamaStatus> {
  const checkedAt = Date.now();
  const check = await checkModelServer(settings, { signal, timeoutMs });
  const chosenModel = settings.modelProvider === 'openai' ? settings.openaiModel : settings.ollamaModel;
  const status: OllamaStatus = {
    ...(check.provider === 'openai' ? { provider: 'openai' as const } : {}),
    host: check.url,
    model: check.ok ? check.model : (chosenModel ?? null),
    reachable: check.reachable,
    models: check.models,
    // An OpenAI-compatible server does not say; the first request with tools tells, and the agent falls back.
    tools: check.tools,
    checkedAt,
  };
  if (check.version !== null) status.version = check.version;
  if (check.problem !== null) status.problem = check.problem;
  return status;
}
