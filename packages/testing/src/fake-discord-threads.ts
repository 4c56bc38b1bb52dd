import type { FakeDiscordStore } from './fake-discord-store.js';
import type { FakeDiscordChannel, FakeDiscordGuild, FakeDiscordThreadOptions } from './fake-discord-types.js';

/** Minutes of inactivity before Discord archives a thread; 1440 (a day) is its default. */
const AUTO_ARCHIVE_MINUTES = 1440;

/**
 * Makes a thread under `options.parent` (a channel of `guild`, by id or name) and stores it.
 * Throws one sentence for an unknown parent, a thread under a DM or thread, a private forum post,
 * or a starter message outside a forum.
 */
export function makeThread(
  store: FakeDiscordStore,
  guild: FakeDiscordGuild,
  options: FakeDiscordThreadOptions,
): FakeDiscordChannel {
  const parent = guild.channels.find(
    (channel) => channel.id === options.parent || channel.name === options.parent,
  );
  if (!parent) throw new Error(`createThread: unknown parent channel ${options.parent}`);
  const forum = parent.type === 15;
  if (forum && options.private) throw new Error('createThread: a forum post is always a public thread');
  if (!forum && options.message)
    throw new Error('createThread: only a forum post has a starter message; dispatch messages instead');
  const owner = store.user(options.owner);
  const thread: FakeDiscordChannel = {
    id: options.id ?? store.nextId(),
    type: options.private ? 12 : 11,
    name: options.name ?? 'thread',
    guildId: guild.id,
    parentId: parent.id,
    ownerId: owner.id,
    memberIds: options.botIsMember === false ? [owner.id] : [owner.id, store.botUser.id],
    createdAt: new Date().toISOString(),
  };
  store.channels.set(thread.id, thread);
  guild.threads.push(thread);
  return thread;
}

/** Whether the bot sees the channel: any but a private thread it is not a member of. */
export function botSeesThread(store: FakeDiscordStore, thread: FakeDiscordChannel): boolean {
  return thread.type !== 12 || (thread.memberIds ?? []).includes(store.botUser.id);
}

/**
 * A thread's channel object as Discord sends it (GET /channels/:id, GUILD_CREATE's `threads`,
 * THREAD_CREATE): `parent_id`, `owner_id`, counts and `thread_metadata`; `member` is the bot's
 * thread member object, which THREAD_CREATE carries when the bot is in the thread.
 */
export function threadPayload(
  store: FakeDiscordStore,
  thread: FakeDiscordChannel,
  extra: { member?: boolean; newlyCreated?: boolean } = {},
): Record<string, unknown> {
  const createdAt = thread.createdAt ?? new Date().toISOString();
  const messages = store.channelMessages(thread.id);
  const parent = store.channels.get(thread.parentId ?? '');
  const members = thread.memberIds ?? [];
  return {
    id: thread.id,
    type: thread.type,
    guild_id: thread.guildId,
    parent_id: thread.parentId,
    owner_id: thread.ownerId,
    name: thread.name,
    last_message_id: messages.at(-1)?.id ?? null,
    // Discord leaves a forum post's starter message out of message_count.
    message_count: parent?.type === 15 ? Math.max(0, messages.length - 1) : messages.length,
    total_message_sent: messages.length,
    member_count: Math.min(50, members.length),
    rate_limit_per_user: 0,
    flags: 0,
    ...(parent?.type === 15 ? { applied_tags: [] } : {}),
    thread_metadata: {
      archived: false,
      auto_archive_duration: AUTO_ARCHIVE_MINUTES,
      archive_timestamp: createdAt,
      locked: false,
      create_timestamp: createdAt,
      ...(thread.type === 12 ? { invitable: true } : {}),
    },
    ...(extra.member && members.includes(store.botUser.id)
      ? {
          member: { id: thread.id, user_id: store.botUser.id, join_timestamp: createdAt, flags: 0 },
        }
      : {}),
    ...(extra.newlyCreated ? { newly_created: true } : {}),
  };
}

/** A text channel's object: what GUILD_CREATE and GET /channels/:id give for type 0. */
export function textChannelPayload(channel: FakeDiscordChannel): Record<string, unknown> {
  return {
    id: channel.id,
    type: 0,
    guild_id: channel.guildId,
    name: channel.name,
    position: 0,
    permission_overwrites: [],
    nsfw: false,
    topic: null,
    rate_limit_per_user: 0,
    parent_id: null,
    last_message_id: null,
    flags: 0,
  };
}

/** A forum channel's object: a text channel's fields plus the forum's tag and layout settings. */
export function forumPayload(channel: FakeDiscordChannel): Record<string, unknown> {
  return {
    ...textChannelPayload(channel),
    type: 15,
    available_tags: [],
    default_reaction_emoji: null,
    default_thread_rate_limit_per_user: 0,
    default_sort_order: null,
    default_forum_layout: 0,
  };
}
