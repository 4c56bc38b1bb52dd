import { type ChatModel, type ChatReply, createModelPool, type Logger, type ModelPool } from '@macstats/core';
import { isRequestRefusal, type VoiceHost } from './server-request.js';
import { isClipProblem } from './voice-errors.js';

/** One request of a {@link HostPool}: the work to do on whichever host the pool picks. */
export type HostWork<T> = (host: VoiceHost, signal: AbortSignal | undefined) => Promise<T>;

/** Several speech servers as one, with core's pool choosing and failing over. */
export interface HostPool {
  /** Runs `work` on a healthy host (fewest requests in flight); on failure, once more on another. */
  run<T>(work: HostWork<T>, signal: AbortSignal | undefined): Promise<{ value: T; host: VoiceHost }>;
  /** Each host as the pool sees it now. */
  hosts(): Array<{ baseUrl: string; healthy: boolean; inFlight: number }>;
  close(): void;
}

interface PendingWork {
  work: HostWork<unknown>;
  result?: { value: unknown; host: VoiceHost };
  /** A refusal of the request itself, kept out of the pool's view and thrown after it. */
  refusal?: unknown;
}

const NO_CAPABILITIES = { tools: false, vision: false, thinking: false, contextLength: null } as const;

/**
 * Core's `createModelPool` reused for speech servers, so both kinds of server share one notion of
 * health, load and failover: each host is a pool member whose "chat" runs the request's work. The
 * work travels by a key in the request's only message, since the pool passes requests on whole.
 * A refusal of the request itself (a 4xx: wrong model, unreadable file) is kept from the pool, so
 * the host stays healthy and no other host is asked.
 */
export function createHostPool(
  hosts: readonly VoiceHost[],
  model: string,
  logger: Logger | undefined,
): HostPool {
  const pending = new Map<string, PendingWork>();
  let next = 0;
  const member = (host: VoiceHost): { name: string; model: ChatModel } => ({
    name: host.baseUrl,
    model: {
      model,
      chat: async (request): Promise<ChatReply> => {
        const key = request.messages[0]?.content ?? '';
        const entry = pending.get(key);
        if (entry === undefined) throw new Error('speech pool: unknown request');
        const startedAt = performance.now();
        try {
          entry.result = { value: await entry.work(host, request.signal), host };
        } catch (error) {
          // The request's own fault (a refusal, or a clip that cannot be turned into the WAV a
          // server asked for): the pool must neither mark this host down nor try another.
          if (!isRequestRefusal(error) && !isClipProblem(error)) throw error;
          entry.refusal = error;
        }
        const durationMs = performance.now() - startedAt;
        return {
          content: '',
          toolCalls: [],
          usage: { promptTokens: null, completionTokens: null, durationMs, tokensPerSecond: null },
        };
      },
      capabilities: async () => NO_CAPABILITIES,
    },
  });
  const pool: ModelPool = createModelPool({
    members: hosts.map(member),
    model,
    ...(logger ? { logger } : {}),
  });
  return {
    async run<T>(work: HostWork<T>, signal: AbortSignal | undefined) {
      next += 1;
      const key = `voice-request-${next}`;
      const entry: PendingWork = { work };
      pending.set(key, entry);
      try {
        await pool.chat({ messages: [{ role: 'user', content: key }], ...(signal ? { signal } : {}) });
        if (entry.refusal !== undefined) throw entry.refusal;
        return entry.result as { value: T; host: VoiceHost };
      } finally {
        pending.delete(key);
      }
    },
    hosts: () =>
      pool.members().map((view) => ({ baseUrl: view.name, healthy: view.healthy, inFlight: view.inFlight })),
    close: () => pool.close(),
  };
}
