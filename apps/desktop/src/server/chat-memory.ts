import type { Agent, MemoryStore, MessageArchive } from '@macstats/core';

/**
 * What the chat's pages may remove from the agent's memory: a whole conversation (deleted chat)
 * and one remembered message (the fold under an answer). Through the chat's agent when there is
 * one, so its recall forgets it at once; else straight from the stores.
 */
export function chatMemoryActions(options: {
  agent: () => Agent | undefined;
  store: () => MemoryStore;
  archive: MessageArchive;
}): {
  forget(conversationId: string): Promise<unknown>;
  forgetMessage(conversationId: string, seq: number): Promise<boolean>;
} {
  return {
    async forget(conversationId) {
      const agent = options.agent();
      if (agent) return agent.forget(conversationId);
      await options.store().delete(conversationId);
      return options.archive.clear(conversationId);
    },
    forgetMessage(conversationId, seq) {
      const agent = options.agent();
      return agent?.forgetMessage
        ? agent.forgetMessage(conversationId, seq)
        : options.archive.remove(conversationId, seq);
    },
  };
}
