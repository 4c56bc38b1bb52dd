import type { PoolMember, PoolMemberStatus } from '../model/model-pool.js';
import { createOllamaModel, type OllamaModelOptions } from './ollama-model.js';

/**
 * An Ollama server as a {@link PoolMember}: its chat model, and a status read from `/api/tags`
 * (the models it has) and `/api/ps` (those loaded now; a server without it reports none).
 *
 * @example
 * const pool = createModelPool({
 *   members: config.ollamaHosts.map((host) => createOllamaPoolMember({ host, model: config.model })),
 * });
 */
export function createOllamaPoolMember(options: OllamaModelOptions & { host: string }): PoolMember {
  const model = createOllamaModel(options);
  const base = options.host.replace(/\/+$/, '');
  return {
    name: base,
    model,
    async status(signal): Promise<PoolMemberStatus> {
      const tags = await getJson(`${base}/api/tags`, signal);
      if (tags === undefined) throw new Error(`[GET] ${base}/api/tags: not found`);
      const ps = await getJson(`${base}/api/ps`, signal);
      return { models: names(tags), loaded: ps === undefined ? [] : names(ps) };
    },
  };
}

async function getJson(url: string, signal: AbortSignal): Promise<unknown> {
  const response = await fetch(url, { signal });
  if (response.status === 404) {
    await response.body?.cancel();
    return undefined;
  }
  if (!response.ok) {
    await response.body?.cancel();
    throw new Error(`[GET] ${url}: ${response.status}`);
  }
  return response.json();
}

function names(body: unknown): string[] {
  const models = (body as { models?: unknown } | null)?.models;
  if (!Array.isArray(models)) return [];
  return models
    .map(
      (entry) => (entry as { name?: unknown; model?: unknown }).name ?? (entry as { model?: unknown }).model,
    )
    .filter((name): name is string => typeof name === 'string');
}
