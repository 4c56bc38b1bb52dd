import { IS_VOICE_MESSAGE, putOnCdn } from './fake-discord-attachments.js';
import { type FakeGateway, GATEWAY_INTENTS } from './fake-discord-gateway.js';
import { messageEventView } from './fake-discord-rest.js';
import type { FakeDiscordStore } from './fake-discord-store.js';
import { botSeesThread, makeThread, threadPayload } from './fake-discord-threads.js';
import type {
  FakeDiscordChannel,
  FakeDiscordDispatchOptions,
  FakeDiscordMessage,
  FakeDiscordReactionOptions,
  FakeDiscordThreadOptions,
} from './fake-discord-types.js';

/** What the test-facing dispatchers need from the rest of the fake. */
export interface DispatchContext {
  store: FakeDiscordStore;
  gateway: FakeGateway;
  onChange(): void;
}

/**
 * The events a test makes happen: messages (in channels, threads and DMs) and new threads, sent
 * through the gateway as Discord would send them to the bot.
 */
export function createDispatchers({ store, gateway, onChange }: DispatchContext) {
  const sendThreadCreate = (thread: FakeDiscordChannel, newlyCreated: boolean) => {
    const payload = threadPayload(store, thread, { member: true, newlyCreated });
    gateway.dispatch('THREAD_CREATE', (intents) =>
      (intents & GATEWAY_INTENTS.guilds) !== 0 ? payload : undefined,
    );
  };

  function dispatchMessage(dispatch: FakeDiscordDispatchOptions, id?: string): FakeDiscordMessage {
    const author = store.user(dispatch.author);
    const channel = dispatch.dm
      ? store.dmChannel(author)
      : dispatch.channelId
        ? store.channels.get(dispatch.channelId)
        : store.guilds[0]?.channels[0];
    if (!channel) throw new Error(`dispatchMessage: unknown channel ${dispatch.channelId ?? '(none)'}`);
    if (channel.type === 15)
      throw new Error('dispatchMessage: a forum channel holds posts, not messages; use createThread');
    let content = dispatch.content;
    const mentions: string[] = [];
    if (dispatch.mentionsBot) {
      mentions.push(store.botUser.id);
      if (!content.includes(`<@${store.botUser.id}>`) && !content.includes(`<@!${store.botUser.id}>`))
        content = `<@${store.botUser.id}> ${content}`;
    }
    if (dispatch.replyTo && !store.messages.has(dispatch.replyTo))
      throw new Error(`dispatchMessage: replyTo ${dispatch.replyTo} is not a known message`);
    const messageId = id ?? store.nextId();
    const attachments = (dispatch.attachments ?? []).map((file) => {
      const attachmentId = store.nextId();
      const path = `/attachments/${channel.id}/${attachmentId}/${encodeURIComponent(file.filename)}`;
      const data = typeof file.data === 'string' ? new TextEncoder().encode(file.data) : file.data;
      return {
        id: attachmentId,
        filename: file.filename,
        contentType: file.contentType,
        size: data.byteLength,
        url: putOnCdn(store.files, store.cdnOrigin, path, { data, contentType: file.contentType }),
        ...(file.durationSecs !== undefined ? { durationSecs: file.durationSecs } : {}),
        ...(file.waveform !== undefined ? { waveform: file.waveform } : {}),
      };
    });
    const voice = attachments.some((file) => file.waveform !== undefined && file.durationSecs !== undefined);
    const message: FakeDiscordMessage = {
      id: messageId,
      ...(attachments.length > 0 ? { attachments } : {}),
      channelId: channel.id,
      ...(channel.guildId ? { guildId: channel.guildId } : {}),
      author,
      content,
      mentions,
      ...(dispatch.replyTo ? { replyTo: dispatch.replyTo } : {}),
      flags: voice ? IS_VOICE_MESSAGE : 0,
      timestamp: new Date().toISOString(),
      deleted: false,
    };
    store.addMessage(message);
    if (channel.type === 12 && !botSeesThread(store, channel) && dispatch.mentionsBot) {
      // Mentioning someone who can see the parent adds them to a private thread.
      channel.memberIds = [...(channel.memberIds ?? []), store.botUser.id];
      sendThreadCreate(channel, false);
    }
    if (channel.type !== 12 || botSeesThread(store, channel))
      gateway.dispatch('MESSAGE_CREATE', messageEventView(store, message));
    onChange();
    return message;
  }

  function createThread(options: FakeDiscordThreadOptions): FakeDiscordChannel {
    const isParent = (channel: FakeDiscordChannel) =>
      channel.id === options.parent || channel.name === options.parent;
    const guild = store.guilds.find((candidate) => candidate.channels.some(isParent));
    if (!guild) throw new Error(`createThread: unknown parent channel ${options.parent}`);
    if (guild.channels.find(isParent)?.type === 15 && !options.message)
      throw new Error('createThread: a forum post needs its starter message (`message`)');
    const thread = makeThread(store, guild, options);
    if (botSeesThread(store, thread)) sendThreadCreate(thread, true);
    if (options.message)
      dispatchMessage(
        {
          channelId: thread.id,
          content: options.message.content,
          ...(options.message.mentionsBot ? { mentionsBot: true } : {}),
          ...(options.owner ? { author: options.owner } : {}),
        },
        thread.id,
      );
    onChange();
    return thread;
  }

  function addReaction(reaction: FakeDiscordReactionOptions): void {
    const message = store.messages.get(reaction.messageId);
    if (!message || message.deleted) throw new Error(`addReaction: unknown message ${reaction.messageId}`);
    const user = store.user(reaction.user);
    const isDm = message.guildId === undefined;
    const payload = {
      user_id: user.id,
      channel_id: message.channelId,
      message_id: message.id,
      message_author_id: message.author.id,
      emoji: { id: null, name: reaction.emoji },
      burst: false,
      burst_colors: [],
      type: 0,
      ...(isDm
        ? {}
        : {
            guild_id: message.guildId,
            member: {
              user: store.userPayload(user),
              roles: [],
              joined_at: message.timestamp,
              deaf: false,
              mute: false,
              flags: 0,
            },
          }),
    };
    const needed = isDm ? GATEWAY_INTENTS.directMessageReactions : GATEWAY_INTENTS.guildMessageReactions;
    gateway.dispatch('MESSAGE_REACTION_ADD', (intents) => ((intents & needed) !== 0 ? payload : undefined));
    onChange();
  }

  return {
    dispatchMessage: (dispatch: FakeDiscordDispatchOptions) => dispatchMessage(dispatch),
    createThread,
    addReaction,
  };
}
