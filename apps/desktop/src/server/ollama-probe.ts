import { checkOllama } from '@macstats/core';

/** What the dashboard knows about the Ollama it talks to. */
export interface OllamaStatus {
  host: string;
  /** The model the chat uses: the chosen one when installed, else the first suitable one; null when none. */
  model: string | null;
  reachable: boolean;
  version?: string;
  /** Installed models, as `GET /api/tags` lists them. */
  models: string[];
  /** Whether the model has Ollama's `tools` capability; null when unknown. */
  tools: boolean | null;
  /** One sentence naming what is wrong and the fix, for the banner; absent when all is well. */
  problem?: string;
  /** When this was checked, ms since the epoch. */
  checkedAt: number;
}

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
