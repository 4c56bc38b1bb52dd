import type { FakeDiscordStore } from './fake-discord-store.js';
import type { FakeDiscordSentRecord } from './fake-discord-types.js';

/**
 * Whether `userId` can see message `messageId`, as Discord shows it: an ephemeral interaction
 * reply only to the interaction's user, a DM only to its recipient (and the bot), a guild
 * channel's or thread's message to every member (the fake keeps no per-channel permissions).
 */
export function canSee(store: FakeDiscordStore, userId: string, messageId: string): boolean {
  const message = store.messages.get(messageId);
  if (!message) return false;
  if (message.author.id === userId) return true;
  if (message.visibleTo !== undefined) return message.visibleTo === userId;
  const channel = store.channels.get(message.channelId);
  if (!channel) return false;
  if (channel.type === 1) return channel.recipientId === userId;
  return true;
}

/**
 * The texts of the bot's messages that `userId` could read, from the record of every create and
 * edit: each content as created and after each edit, deleted messages included.
 */
export function textsSeenBy(
  store: FakeDiscordStore,
  sent: readonly FakeDiscordSentRecord[],
  userId: string,
): string[] {
  return sent.flatMap((record) =>
    record.type !== 'delete' && canSee(store, userId, record.messageId) ? [record.content] : [],
  );
}
