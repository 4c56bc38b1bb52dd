import type { Logger } from '../util/logger.js';

/**
 * One message of a conversation, kept verbatim in its archive: who said it, what, when, and the
 * containment labels its turn carried (so outside content recalled later is still outside).
 */
export interface ArchivedMessage {
  /** Position in the archive: grows with each message appended (not necessarily by one). */
  seq: number;
  /** Who said it: `user`, `assistant`, or an imported speaker's name. */
  speaker: string;
  /** The text, as it was said. */
  text: string;
  /** When it was said, in milliseconds since the epoch. */
  at: number;
  /** Set when outside content was in the turn's context: the text may carry an attacker's words. */
  outside?: true;
  /** The sites that outside content came from, when known. */
  origins?: string[];
}

/** The folder of a file memory's archive, inside the memory's own folder (`sessions/archive`). */
export const ARCHIVE_FOLDER = 'archive';

/** A message to append: the archive gives it its `seq`. */
export type NewArchivedMessage = Omit<ArchivedMessage, 'seq'>;

/** One hit of {@link MessageArchive.search}. */
export interface ArchiveHit {
  message: ArchivedMessage;
  /** Higher is more relevant; comparable only within one search. */
  score: number;
}

/**
 * Where each conversation's messages are kept verbatim, apart from the rolling record (the last
 * turns and the summary): folding turns into the summary and the TTL never delete from it.
 */
export interface MessageArchive {
  /** Appends messages in order and resolves them with their `seq`. */
  append(conversationId: string, messages: readonly NewArchivedMessage[]): Promise<ArchivedMessage[]>;
  /** The conversation's messages with `seq` above `after` (all by default), oldest first. */
  read(conversationId: string, after?: number): Promise<ArchivedMessage[]>;
  /** Removes one message; resolves false when there was none with that `seq`. */
  remove(conversationId: string, seq: number): Promise<boolean>;
  /** Removes every message of the conversation and resolves how many went. */
  clear(conversationId: string): Promise<number>;
  /** Removes every message said before `cutoff` (ms since the epoch), in every conversation. */
  prune(cutoff: number): Promise<number>;
  /** The ids of the conversations with archived messages (what `macstats database import` copies). */
  conversations(): Promise<string[]>;
  /**
   * Full-text search done by the store itself (PostgreSQL's tsvector). Optional: without it,
   * `searchArchive` ranks the messages it reads.
   */
  search?(conversationId: string, query: string, limit: number): Promise<ArchiveHit[]>;
  /** True when other processes append to the same archive (a shared database). */
  readonly shared?: boolean;
}

/** True when `value` is a well-formed archived message (what a store reads back). */
export function isArchivedMessage(value: unknown): value is ArchivedMessage {
  if (typeof value !== 'object' || value === null) return false;
  const message = value as Partial<ArchivedMessage>;
  return (
    typeof message.seq === 'number' &&
    typeof message.speaker === 'string' &&
    typeof message.text === 'string' &&
    typeof message.at === 'number' &&
    (message.outside === undefined || message.outside === true) &&
    (message.origins === undefined ||
      (Array.isArray(message.origins) && message.origins.every((origin) => typeof origin === 'string')))
  );
}

/** An in-process archive: what the agent keeps when it is given no folder and no database. */
/** The store that lives in this process only (what the `create…` function gives without `dir`). */
export function createInProcessArchive(): MessageArchive {
  const conversations = new Map<string, ArchivedMessage[]>();
  let next = 1;
  return {
    append: async (id, messages) => {
      const list = conversations.get(id) ?? [];
      conversations.set(id, list);
      const added = messages.map((message) => ({ ...structuredClone(message), seq: next++ }));
      list.push(...added);
      return structuredClone(added);
    },
    read: async (id, after = 0) => {
      const list = conversations.get(id) ?? [];
      // Seqs grow along the list: the new ones are at its end.
      let start = list.length;
      while (start > 0 && (list[start - 1]?.seq ?? 0) > after) start--;
      return structuredClone(list.slice(start));
    },
    remove: async (id, seq) => {
      const list = conversations.get(id) ?? [];
      const index = list.findIndex((message) => message.seq === seq);
      if (index < 0) return false;
      list.splice(index, 1);
      return true;
    },
    clear: async (id) => {
      const count = conversations.get(id)?.length ?? 0;
      conversations.delete(id);
      return count;
    },
    conversations: async () => [...conversations].filter(([, list]) => list.length > 0).map(([id]) => id),
    prune: async (cutoff) => {
      let pruned = 0;
      for (const [id, list] of conversations) {
        const kept = list.filter((message) => message.at >= cutoff);
        pruned += list.length - kept.length;
        conversations.set(id, kept);
      }
      return pruned;
    },
  };
}

/** Options of {@link createMessageArchive}. */
export interface MessageArchiveOptions {
  /** Folder for one JSON Lines file per conversation; without it, the archive lives in this process. */
  dir?: string | undefined;
  /** Where a file cut short or unreadable is reported. Default: silent. */
  logger?: Logger | undefined;
}
