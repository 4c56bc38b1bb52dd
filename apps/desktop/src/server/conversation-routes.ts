import type { Logger } from '@macstats/core';
import type { ConversationList, ConversationsEvent } from '../shared/chat-types.js';
import type { ConversationStore } from './conversation-store.js';
import type { EventHub } from './event-hub.js';
import { checkId, HttpError, sendJson } from './http-helpers.js';
import type { Route } from './router.js';

/** What the conversation routes need of the chat. */
export interface ConversationRoutesOptions {
  store: ConversationStore;
  hub: EventHub;
  logger: Logger;
  /** Conversation id → the page that asked last there; a deleted conversation is dropped. */
  askingPages: Map<string, string>;
  /** True while an answer is written in that conversation. */
  isRunning(conversationId: string): boolean;
  /** Ids whose deletion is under way; the chat refuses new questions there meanwhile. */
  deleting: Set<string>;
  /** Forgets the agent's memory of a deleted conversation. Default: nothing. */
  forget?: (conversationId: string) => Promise<unknown>;
  /** Removes one remembered message from the conversation's archive; false when there was none. */
  forgetMessage?: (conversationId: string, seq: number) => Promise<boolean>;
}

/**
 * The saved conversations: the list (newest first), one transcript, and deletion. A deletion is
 * refused while an answer runs there, and is announced to every open page as a `conversations`
 * event so their lists follow.
 */
export function createConversationRoutes(options: ConversationRoutesOptions): Route[] {
  const { store, hub, logger, deleting } = options;
  return [
    {
      method: 'GET',
      path: /^\/api\/conversations$/,
      kind: 'read',
      async handle({ response }) {
        const { conversations, truncated } = await store.list();
        const list: ConversationList = {
          conversations: conversations.map((item) => ({ ...item, running: options.isRunning(item.id) })),
          truncated,
        };
        sendJson(response, 200, list);
      },
    },
    {
      method: 'GET',
      path: /^\/api\/conversations\/([\w-]+)$/,
      kind: 'read',
      async handle({ response, params }) {
        const conversation = await store.load(checkId(params[0] ?? '', 'conversation id'));
        sendJson(response, 200, conversation);
      },
    },
    {
      method: 'DELETE',
      path: /^\/api\/conversations\/([\w-]+)\/remembered\/(\d{1,15})$/,
      kind: 'write',
      async handle({ response, params }) {
        const conversationId = checkId(params[0] ?? '', 'conversation id');
        const seq = Number(params[1]);
        if (!(await options.forgetMessage?.(conversationId, seq)))
          throw new HttpError(404, 'That message is not remembered in this conversation.');
        // The transcript's folds stop showing it too.
        const conversation = await store.load(conversationId);
        for (const turn of conversation.turns)
          if (turn.recalled) turn.recalled = turn.recalled.filter((line) => line.seq !== seq);
        await store.save(conversation);
        sendJson(response, 200, { forgotten: seq });
      },
    },
    {
      method: 'DELETE',
      path: /^\/api\/conversations\/([\w-]+)$/,
      kind: 'write',
      async handle({ response, params }) {
        const conversationId = checkId(params[0] ?? '', 'conversation id');
        if (options.isRunning(conversationId)) {
          throw new HttpError(409, 'The agent is still answering in this conversation: stop it first.');
        }
        if (deleting.has(conversationId)) throw new HttpError(409, 'This conversation is being deleted.');
        deleting.add(conversationId);
        try {
          if (!(await store.remove(conversationId))) {
            throw new HttpError(404, 'There is no saved conversation with that id.');
          }
          options.askingPages.delete(conversationId);
          await options.forget?.(conversationId).catch((error: unknown) => {
            logger.warn({ err: error, conversationId }, 'the agent could not forget a deleted conversation');
          });
        } finally {
          deleting.delete(conversationId);
        }
        const event: ConversationsEvent = { kind: 'deleted', conversationId };
        hub.broadcast('conversations', event);
        sendJson(response, 200, { deleted: conversationId });
      },
    },
  ];
}
