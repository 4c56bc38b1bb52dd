import { checkOllama } from '@macstats/core';
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
