import type { Logger } from '../util/logger.js';

/** One question and the reply the user saw. */
export interface ConversationTurn {
  question: string;
  answer: string;
  /** When the turn ended, in milliseconds since the epoch. */
  at: number;
  /** Set when outside content was in the answer's context: the answer may carry an attacker's words. */
  outside?: true;
  /** The sites (origins) that outside content came from, when known. */
  origins?: string[];
}

/** What is remembered of one conversation. */
export interface ConversationRecord {
  id: string;
  /** Rolling summary of the turns no longer kept verbatim. */
  summary: string | null;
  /** Set when a turn folded into the summary had outside content in its context. */
  summaryOutside?: true;
  /** The sites outside content came from in the turns folded into the summary. */
  summaryOrigins?: string[];
  /** Turns not yet folded into the summary, oldest first. */
  turns: ConversationTurn[];
  /** Last change, in milliseconds since the epoch; the TTL counts from here. */
  updatedAt: number;
}

/** True when `value` is a well-formed record of conversation `id` (what a store reads back). */
export function isConversationRecord(value: unknown, id: string): value is ConversationRecord {
  if (typeof value !== 'object' || value === null) return false;
  const record = value as Partial<ConversationRecord>;
  return (
    record.id === id &&
    (record.summary === null || typeof record.summary === 'string') &&
    typeof record.updatedAt === 'number' &&
    Array.isArray(record.turns) &&
    record.turns.every(
      (turn) =>
        typeof turn === 'object' &&
        turn !== null &&
        typeof turn.question === 'string' &&
        typeof turn.answer === 'string' &&
        typeof turn.at === 'number',
    )
  );
}

/** Where conversation records live. */
export interface MemoryStore {
  /** The record, or undefined when there is none (or it could not be read). */
  load(id: string): Promise<ConversationRecord | undefined>;
  save(record: ConversationRecord): Promise<void>;
  delete(id: string): Promise<void>;
  /**
   * Deletes every record last changed before `cutoff` (ms since the epoch) and resolves how many
   * went. Optional: without it, expired records are dropped only when their conversation is read.
   */
  sweep?(cutoff: number): Promise<number>;
  /**
   * True when other processes write the same records (a database several hosts share): each
   * answer then reads its conversation from the store instead of this process's cache.
   */
  readonly shared?: boolean;
}

/** Options of {@link createMemoryStore}. */
export interface MemoryStoreOptions {
  /** Folder for one JSON file per conversation; without it, records live in this process only. */
  dir?: string;
  /** Where a corrupt file is reported. Default: silent. */
  logger?: Logger;
}

/** The store that lives in this process only (what the `create…` function gives without `dir`). */
export function createInProcessStore(): MemoryStore {
  const records = new Map<string, ConversationRecord>();
  return {
    load: async (id) => {
      const record = records.get(id);
      return record ? structuredClone(record) : undefined;
    },
    save: async (record) => {
      records.set(record.id, structuredClone(record));
    },
    delete: async (id) => {
      records.delete(id);
    },
    sweep: async (cutoff) => {
      let swept = 0;
      for (const [id, record] of records) {
        if (record.updatedAt < cutoff && records.delete(id)) swept++;
      }
      return swept;
    },
  };
}
