import { join } from 'node:path';
import { AGENT_DEFAULTS } from '../defaults.js';
import { ConversationMemory } from '../memory/conversation-memory.js';
import { ARCHIVE_FOLDER } from '../memory/message-archive.js';
import { createRecall } from '../memory/recall/recall.js';
import { createMemoryStore, createMessageArchive } from '../memory/stores.js';
import { stripThinking } from '../parser/quoted-regions.js';
import type { AgentConfig } from './agent-config.js';
import type { AgentOptions } from './agent-types.js';

/**
 * The agent's conversation memory, or null without one: the rolling record's store, the archive
 * (given, or files under `memory.dir/archive`, or this process), recall over it, and the
 * background summaries made on the agent's model.
 */
export function createAgentMemory(options: AgentOptions, config: AgentConfig): ConversationMemory | null {
  const { logger, now, model } = config;
  const memoryDefaults = AGENT_DEFAULTS.memory;
  const archive =
    options.memory === false
      ? undefined
      : (options.memory?.archive ??
        createMessageArchive({
          dir: options.memory?.dir ? join(options.memory.dir, ARCHIVE_FOLDER) : undefined,
          logger,
        }));
  const recallBudget = options.memory ? options.memory.recall : undefined;
  return config.memory === false || options.memory === false || archive === undefined
    ? null
    : new ConversationMemory({
        store:
          options.memory?.store ??
          createMemoryStore({ ...(options.memory?.dir ? { dir: options.memory.dir } : {}), logger }),
        ...config.memory,
        archive,
        recall: createRecall({
          archive,
          logger,
          budget: recallBudget === false ? { maxMessages: 0 } : recallBudget,
          embedder: options.memory ? options.memory.embedder : undefined,
        }),
        retentionMs: options.memory?.retentionMs,
        now,
        logger,
        summarise: async (messages, signal) => {
          const call = 1;
          options.onEvent?.({ type: 'llm-call-start', call, purpose: 'summary' });
          const reply = await model.chat({
            messages,
            signal,
            firstTokenTimeoutMs: memoryDefaults.summaryTimeoutMs,
          });
          options.onEvent?.({
            type: 'llm-call-end',
            call,
            purpose: 'summary',
            durationMs: reply.usage.durationMs,
            promptTokens: reply.usage.promptTokens,
            completionTokens: reply.usage.completionTokens,
            tokensPerSecond: reply.usage.tokensPerSecond,
            hadToolCall: false,
          });
          // A thinking model's reasoning would crowd the summary out of its 600 characters.
          return stripThinking(reply.content);
        },
      });
}
