import type { Logger } from '../../util/logger.js';
import type { ArchivedMessage, MessageArchive } from '../message-archive.js';
import type { Embedder } from './embedder.js';
import { type RankedMessage, type RankingWeights, RecallIndex } from './recall-index.js';

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
  /**
   * An embedding model (`createEmbedder`): ranking then fuses the lexical ranking with the
   * embeddings' (reciprocal rank fusion). Without it, or when it fails (logged), lexical alone.
   */
  embedder?: Embedder | undefined;
}

/** A conversation's lexical index and the embeddings of its messages made so far. */
interface Indexed {
  lexical: RecallIndex;
  vectors: Map<number, Float32Array>;
}

/** Messages embedded per request. */
const EMBED_BATCH = 64;
/**
 * Messages embedded before one answer, newest first: a long imported history is embedded over
 * several answers instead of holding the first one up (until then it is found by words).
 */
const EMBED_PER_ANSWER = 512;
/** Reciprocal rank fusion's constant: how much the top ranks weigh over the rest. */
const FUSION_K = 60;

function unit(vector: readonly number[]): Float32Array {
  const result = Float32Array.from(vector);
  let norm = 0;
  for (const value of result) norm += value * value;
  norm = Math.sqrt(norm) || 1;
  for (let index = 0; index < result.length; index++) result[index] = (result[index] ?? 0) / norm;
  return result;
}

function dot(a: Float32Array, b: Float32Array): number {
  let sum = 0;
  const length = Math.min(a.length, b.length);
  for (let index = 0; index < length; index++) sum += (a[index] ?? 0) * (b[index] ?? 0);
  return sum;
}

/**
 * Fuses the lexical ranking with the embeddings' by reciprocal rank: each list gives a message
 * 1 / (60 + its rank); messages on both lists rise.
 */
async function fuse(
  indexed: Indexed,
  lexical: RankedMessage[],
  question: string,
  embedder: Embedder,
  limit: number,
): Promise<RankedMessage[]> {
  const { messages } = indexed.lexical;
  const missing = messages
    .filter((message) => !indexed.vectors.has(message.seq))
    .reverse()
    .slice(0, EMBED_PER_ANSWER);
  for (let start = 0; start < missing.length; start += EMBED_BATCH) {
    const batch = missing.slice(start, start + EMBED_BATCH);
    const vectors = await embedder.embed(batch.map((message) => `${message.speaker}: ${message.text}`));
    for (const [index, message] of batch.entries())
      indexed.vectors.set(message.seq, unit(vectors[index] ?? []));
  }
  const [asked] = await embedder.embed([question]);
  const query = unit(asked ?? []);
  const dense = messages
    .map((message) => ({
      message,
      score: dot(query, indexed.vectors.get(message.seq) ?? new Float32Array()),
    }))
    .sort((a, b) => b.score - a.score)
    .slice(0, limit);
  const fused = new Map<number, RankedMessage>();
  const add = (list: RankedMessage[]) =>
    list.forEach(({ message }, rank) => {
      const entry = fused.get(message.seq) ?? { message, score: 0 };
      entry.score += 1 / (FUSION_K + rank + 1);
      fused.set(message.seq, entry);
    });
  add(lexical);
  add(dense);
  return [...fused.values()].sort((a, b) => b.score - a.score).slice(0, limit);
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
  const indexes = new Map<string, Indexed>();
  const maxIndexes = options.maxIndexes ?? 32;

  async function indexOf(id: string): Promise<Indexed> {
    let index = indexes.get(id);
    indexes.delete(id);
    index ??= { lexical: new RecallIndex(), vectors: new Map() };
    indexes.set(id, index);
    if (indexes.size > maxIndexes) indexes.delete(indexes.keys().next().value as string);
    index.lexical.add(await options.archive.read(id, index.lexical.lastSeq));
    return index;
  }

  return {
    async recall(id, question, { now, exclude = [] }) {
      if (budget.maxMessages <= 0 || budget.maxChars <= 0) return [];
      let index: Indexed;
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
      const limit = budget.maxMessages * 3 + skip.size;
      let ranked = index.lexical.rank(question, {
        now,
        limit,
        ...(options.weights ? { weights: options.weights } : {}),
      });
      if (options.embedder)
        try {
          ranked = await fuse(index, ranked, question, options.embedder, limit);
        } catch (error) {
          options.logger.warn(
            { conversationId: id, err: error },
            'embeddings failed; recalling by words alone',
          );
        }
      const chosen: ArchivedMessage[] = [];
      let chars = 0;
      for (const { message } of ranked) {
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
