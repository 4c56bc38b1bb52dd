import type { PoolMember, PoolMemberStatus } from '@macstats/core';
import { createOpenAiModel, type OpenAiChatModel, type OpenAiModelOptions } from './openai-model.js';

/** A {@link PoolMember} whose model is an {@link OpenAiChatModel}. */
export interface OpenAiPoolMember extends PoolMember {
  model: OpenAiChatModel;
}

/**
 * An OpenAI-compatible server as a member of core's `createModelPool`: its model is
 * {@link createOpenAiModel}, and its status comes from `GET {baseUrl}/models` (sent with the API
 * key when one is set).
 *
 * `models` is every `data[].id` listed. `loaded` is what the listing says is in memory, and only
 * that, so the pool prefers a server only when it knows:
 * - llama-server in router mode marks each entry with `status.value`; `loaded` counts, `loading`
 *   and `unloaded` do not;
 * - vLLM and SGLang serve what they list, as does a standalone llama-server (its one model): their
 *   entries say so in `owned_by` (`vllm`, `sglang`, `llamacpp`), and all of them count as loaded;
 * - LM Studio lists every downloaded model while just-in-time loading is on, and Ollama's `/v1`
 *   lists every pulled model, neither saying which are in memory: `loaded` is empty, and the pool
 *   chooses among them by requests in flight alone.
 *
 * A failed listing (server down, refused key) rejects, which marks the member down until its next
 * successful check.
 *
 * @example
 * const pool = createModelPool({
 *   members: [
 *     createOpenAiPoolMember({ baseUrl: 'http://10.0.0.5:8080/v1', model: 'qwen3-4b' }),
 *     createOpenAiPoolMember({ baseUrl: 'http://10.0.0.6:8080/v1', model: 'qwen3-4b' }),
 *   ],
 * });
 * const agent = createAgent({ model: pool, tools: [] });
 */
export function createOpenAiPoolMember(options: OpenAiModelOptions): OpenAiPoolMember {
  const model = createOpenAiModel(options);
  return {
    name: model.baseUrl,
    model,
    async status(signal): Promise<PoolMemberStatus> {
      const listed = await model.listModels({ signal });
      return {
        models: listed.map((entry) => entry.id),
        loaded: listed.filter((entry) => entry.loaded === true).map((entry) => entry.id),
      };
    },
  };
}
