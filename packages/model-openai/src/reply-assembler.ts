import type { ModelToolCall } from '@macstats/core';
import type { ChatCompletion, ChatCompletionChunk } from 'openai/resources/chat/completions';

/** llama-server adds its own measurements to the last chunk and to whole replies. */
interface LlamaTimings {
  timings?: { predicted_per_second?: unknown };
}

interface PartialCall {
  id?: string;
  name: string;
  arguments: string;
}

/** Arguments the model wrote as a JSON string, as an object; `{}` when empty or not an object. */
export function parseArguments(text: string): { value: Record<string, unknown>; malformed: boolean } {
  if (text.trim() === '') return { value: {}, malformed: false };
  try {
    const value: unknown = JSON.parse(text);
    if (value && typeof value === 'object' && !Array.isArray(value))
      return { value: value as Record<string, unknown>, malformed: false };
  } catch {
    // fall through: the model wrote something that is not JSON
  }
  return { value: {}, malformed: true };
}

/**
 * Builds one reply from streamed chunks: content pieces in order, tool calls assembled from
 * `delta.tool_calls[]` fragments keyed by `index` (the name once, the arguments in string
 * pieces), the finish reason and the usage of the last chunk.
 */
export class ReplyAssembler {
  content = '';
  finishReason: string | null = null;
  promptTokens: number | null = null;
  completionTokens: number | null = null;
  /** As the server measured it (llama-server's `timings`), when it did. */
  serverTokensPerSecond: number | null = null;
  /** Names of calls whose arguments were not a JSON object. */
  readonly malformed: string[] = [];
  readonly #calls = new Map<number, PartialCall>();

  /** Adds one chunk; returns the content it carried (empty when none). */
  add(chunk: ChatCompletionChunk): string {
    this.#readUsage(chunk);
    let piece = '';
    for (const choice of chunk.choices ?? []) {
      if (choice.index !== undefined && choice.index !== 0) continue;
      const delta = choice.delta;
      if (typeof delta?.content === 'string') piece += delta.content;
      for (const fragment of delta?.tool_calls ?? []) {
        const key = typeof fragment.index === 'number' ? fragment.index : this.#calls.size;
        const call = this.#calls.get(key) ?? { name: '', arguments: '' };
        if (fragment.id) call.id = fragment.id;
        // The name comes whole; a server that repeats it in every fragment must not double it.
        if (fragment.function?.name) call.name = fragment.function.name;
        if (fragment.function?.arguments) call.arguments += fragment.function.arguments;
        this.#calls.set(key, call);
      }
      if (choice.finish_reason) this.finishReason = choice.finish_reason;
    }
    this.content += piece;
    return piece;
  }

  /** Takes a whole (not streamed) reply. */
  addCompletion(completion: ChatCompletion): void {
    this.#readUsage(completion);
    const choice = completion.choices?.[0];
    const message = choice?.message;
    this.content = typeof message?.content === 'string' ? message.content : '';
    this.finishReason = choice?.finish_reason ?? null;
    (message?.tool_calls ?? []).forEach((call, index) => {
      if (call.type !== 'function') return;
      this.#calls.set(index, {
        ...(call.id ? { id: call.id } : {}),
        name: call.function.name,
        arguments: call.function.arguments ?? '',
      });
    });
  }

  /** The assembled calls, in index order; calls without a name are dropped. */
  toolCalls(): ModelToolCall[] {
    return [...this.#calls.entries()]
      .sort(([a], [b]) => a - b)
      .map(([, call]) => call)
      .filter((call) => call.name !== '')
      .map((call) => {
        const parsed = parseArguments(call.arguments);
        if (parsed.malformed) this.malformed.push(call.name);
        return call.id
          ? { id: call.id, name: call.name, arguments: parsed.value }
          : { name: call.name, arguments: parsed.value };
      });
  }

  #readUsage(part: { usage?: ChatCompletion['usage'] | null } & LlamaTimings): void {
    const usage = part.usage;
    if (usage) {
      if (typeof usage.prompt_tokens === 'number') this.promptTokens = usage.prompt_tokens;
      if (typeof usage.completion_tokens === 'number') this.completionTokens = usage.completion_tokens;
    }
    const rate = part.timings?.predicted_per_second;
    if (typeof rate === 'number' && Number.isFinite(rate) && rate > 0) this.serverTokensPerSecond = rate;
  }
}
