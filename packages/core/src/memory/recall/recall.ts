import type { Logger } from '../../types.js';
import type { ArchivedMessage, MessageArchive } from '../message-archive.js';
import { type RankingWeights, RecallIndex } from './recall-index.js';

/** How much recall may put in a prompt. */
export interface RecallBudget {
  /** Most messages recalled for one answer. Default 10. */
  maxMessages: number;
  /** Most characters of recalled text for one answer. Default 2,000. */
  maxChars: number;
}

/** The budget of recall unless told otherwise. */
export const RECALL_DEFAULTS: RecallBudget = { maxMessages: 10, maxChars: 2000 };

/** Options of {@link createRecall}. */
export interface RecallOptions {
  archive: MessageArchive;
  logger: Logger;
  budget?: Partial<RecallBudget> | undefined;
  weights?: Partial<RankingWeights> | undefined;
  /** Conversations whose index is kept in memory at once (the least recently used go). Default 32. */
  maxIndexes?: number | undefined;
}

/** Earlier messages chosen for one answer, oldest first, within the budget. */
export interface Recall {
  /**
   * The archived messages most relevant to `question`, oldest first, within the budget; those
   * whose text is in `exclude` (the recent turns already in the prompt) are left out. Resolves
   * `[]` when the archive cannot be read (logged).
   */
  recall(
    conversationId: string,
    question: string,
    options: { now: Date; exclude?: readonly string[] },
  ): Promise<ArchivedMessage[]>;
  /** Drops a conversation's index: the next recall reads its archive again. */
  invalidate(conversationId: string): void;
}

/**
 * Recall per answer: an in-memory BM25 index per conversation, brought up to date from the
 * archive before each answer (only the messages appended since), ranked by the question.
 *
 * @example
 * const recall = createRecall({ archive, logger });
 * const earlier = await recall.recall('alice', 'What is my cat called?', { now: new Date() });
 */
export function createRecall(options: RecallOptions): Recall {
  const budget = { ...RECALL_DEFAULTS, ...options.budget };
  const indexes = new Map<string, RecallIndex>();
  const maxIndexes = options.maxIndexes ?? 32;

  async function indexOf(id: string): Promise<RecallIndex> {
    let index = indexes.get(id);
    indexes.delete(id);
    index ??= new RecallIndex();
    indexes.set(id, index);
    if (indexes.size > maxIndexes) indexes.delete(indexes.keys().next().value as string);
    index.add(await options.archive.read(id, index.lastSeq));
    return index;
  }

  return {
    async recall(id, question, { now, exclude = [] }) {
      if (budget.maxMessages <= 0 || budget.maxChars <= 0) return [];
      let index: RecallIndex;
      try {
        index = await indexOf(id);
      } catch (error) {
        options.logger.warn(
          { conversationId: id, err: error },
          'earlier messages could not be read for recall',
        );
        return [];
      }
      const skip = new Set(exclude.map((text) => text.trim()));
      const chosen: ArchivedMessage[] = [];
      let chars = 0;
      for (const { message } of index.rank(question, {
        now,
        limit: budget.maxMessages * 3 + skip.size,
        ...(options.weights ? { weights: options.weights } : {}),
      })) {
        if (chosen.length >= budget.maxMessages) break;
        if (skip.has(message.text.trim())) continue;
        // A message too long for what is left is passed over for shorter ones below it.
        if (chars + message.text.length > budget.maxChars) continue;
        chosen.push(message);
        chars += message.text.length;
      }
      return chosen.sort((a, b) => a.seq - b.seq);
    },
    invalidate(id) {
      indexes.delete(id);
    },
  };
}
