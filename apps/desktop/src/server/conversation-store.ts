import { readFile, unlink } from 'node:fs/promises';
import { join } from 'node:path';
import { writePrivateFile } from '@macstats/core/internal';
import type { Conversation } from '../shared/chat-types.js';
import {
  CONVERSATION_LIST_DEFAULTS,
  createConversationLister,
  type SavedConversationList,
} from './conversation-list.js';
import { createSerialQueue } from './serial-queue.js';

export type { ChatTurn, Conversation, ToolActivity } from '../shared/chat-types.js';

/** Options of {@link createConversationStore}. */
export interface ConversationStoreOptions {
  /** Turns kept per conversation (the oldest go first). Default 100. */
  maxTurns?: number;
  /** Most conversations {@link ConversationStore.list} reads. Default 200. */
  listLimit?: number;
}

/** Defaults of {@link ConversationStoreOptions}. */
export const CONVERSATION_DEFAULTS = { maxTurns: 100, listLimit: CONVERSATION_LIST_DEFAULTS.limit } as const;

/** Transcripts kept on disk, one JSON file per conversation, so a reload shows the chat again. */
export interface ConversationStore {
  /** The conversation; empty when none was saved yet. Turns cut short by a restart read as stopped. */
  load(id: string): Promise<Conversation>;
  /** Saves atomically; keeps the last `maxTurns` turns. */
  save(conversation: Conversation): Promise<void>;
  /** The saved conversations with turns, newest first, at most `listLimit`. */
  list(): Promise<SavedConversationList>;
  /** Deletes a conversation's file, after any save under way; false when there was none. */
  remove(id: string): Promise<boolean>;
}

/** Creates the store under `dir` (the desktop app's folder in MACSTATS_HOME). */
export function createConversationStore(
  dir: string,
  options: ConversationStoreOptions = {},
): ConversationStore {
  const maxTurns = options.maxTurns ?? CONVERSATION_DEFAULTS.maxTurns;
  const cache = new Map<string, Conversation>();
  const serial = createSerialQueue();
  const fileOf = (id: string) => join(dir, `${id}.json`);

  return {
    async load(id) {
      const cached = cache.get(id);
      if (cached) return cached;
      let conversation: Conversation = { id, turns: [] };
      try {
        const parsed = JSON.parse(await readFile(fileOf(id), 'utf8')) as Partial<Conversation>;
        if (Array.isArray(parsed.turns)) conversation = { id, turns: parsed.turns };
      } catch {
        // Missing or unreadable: start empty; a broken file is replaced at the next save.
      }
      for (const turn of conversation.turns) {
        if (turn.status === 'running') {
          turn.status = 'stopped';
          turn.answer ??= turn.draft || 'The dashboard stopped before this answer was finished.';
          turn.draft = '';
          // Its server-side wait ended with the process: nothing can be approved any more.
          delete turn.approval;
        }
      }
      cache.set(id, conversation);
      return conversation;
    },
    save(conversation) {
      if (conversation.turns.length > maxTurns)
        conversation.turns.splice(0, conversation.turns.length - maxTurns);
      cache.set(conversation.id, conversation);
      const content = `${JSON.stringify(conversation, null, 1)}\n`;
      return serial(conversation.id, async () => {
        // A new folder (and a home made here) is the owner's only, as the bot's data folder is.
        await writePrivateFile(fileOf(conversation.id), content);
      });
    },
    list: createConversationLister(dir, options.listLimit ?? CONVERSATION_DEFAULTS.listLimit),
    remove(id) {
      cache.delete(id);
      return serial(id, () =>
        unlink(fileOf(id)).then(
          () => true,
          (error: NodeJS.ErrnoException) => {
            if (error.code === 'ENOENT') return false;
            throw error;
          },
        ),
      );
    },
  };
}
