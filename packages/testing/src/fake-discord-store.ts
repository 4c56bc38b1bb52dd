import { attachmentPayload, type FakeCdnFile } from './fake-discord-attachments.js';
import { componentsPayload } from './fake-discord-components.js';
import {
  botSeesThread,
  forumPayload,
  makeThread,
  textChannelPayload,
  threadPayload,
} from './fake-discord-threads.js';
import type {
  FakeDiscordChannel,
  FakeDiscordGuild,
  FakeDiscordMessage,
  FakeDiscordOptions,
  FakeDiscordUser,
} from './fake-discord-types.js';

const DISCORD_EPOCH = 1_420_070_400_000n;

/** Makes increasing snowflakes from the clock, so discord.js derives sane creation times. */
export function createSnowflakeFactory(): () => string {
  let last = 0n;
  return () => {
    const candidate = (BigInt(Date.now()) - DISCORD_EPOCH) << 22n;
    last = candidate > last ? candidate : last + 1n;
    return last.toString();
  };
}

/** Users, guilds, channels and messages of one fake Discord, and their wire shapes. */
export class FakeDiscordStore {
  readonly nextId = createSnowflakeFactory();
  readonly applicationId: string;
  readonly botUser: FakeDiscordUser;
  readonly guilds: FakeDiscordGuild[];
  readonly users = new Map<string, FakeDiscordUser>();
  readonly channels = new Map<string, FakeDiscordChannel>();
  readonly messages = new Map<string, FakeDiscordMessage>();
  /** Attachment bytes by URL path (`/attachments/<channel>/<id>/<name>`). */
  readonly files = new Map<string, FakeCdnFile>();
  /** Origin the attachment URLs point at; set once the server listens. */
  cdnOrigin = '';
  private readonly channelOrder = new Map<string, string[]>();
  private readonly idsByUsername = new Map<string, string>();

  constructor(options: FakeDiscordOptions) {
    this.applicationId = this.nextId();
    this.botUser = {
      id: options.botUser?.id ?? this.nextId(),
      username: options.botUser?.username ?? 'macstats',
      bot: true,
    };
    this.users.set(this.botUser.id, this.botUser);
    const guildOptions = options.guilds ?? [{ name: 'Fake Guild', channels: ['general', 'random'] }];
    this.guilds = guildOptions.map((guild) => {
      const id = guild.id ?? this.nextId();
      const channels = (guild.channels ?? ['general']).map((channel) => {
        const spec = typeof channel === 'string' ? { name: channel } : channel;
        const made: FakeDiscordChannel = {
          id: spec.id ?? this.nextId(),
          type: 'type' in spec && spec.type === 'forum' ? 15 : 0,
          name: spec.name,
          guildId: id,
        };
        this.channels.set(made.id, made);
        return made;
      });
      return { id, name: guild.name ?? 'Fake Guild', channels, threads: [] };
    });
    for (const [index, guild] of this.guilds.entries())
      for (const thread of guildOptions[index]?.threads ?? []) makeThread(this, guild, thread);
  }

  /** Finds or makes a user; a username alone always maps to the same id. */
  user(spec: { id?: string; username?: string; bot?: boolean } = {}): FakeDiscordUser {
    const username = spec.username ?? 'alice';
    let id = spec.id ?? this.idsByUsername.get(username);
    if (!id) {
      id = this.nextId();
      this.idsByUsername.set(username, id);
    }
    const existing = this.users.get(id);
    if (existing) return existing;
    const user: FakeDiscordUser = { id, username, bot: spec.bot ?? false };
    this.users.set(id, user);
    return user;
  }

  /** The DM channel between the bot and `user`, made on first use. */
  dmChannel(user: FakeDiscordUser): FakeDiscordChannel {
    for (const channel of this.channels.values())
      if (channel.type === 1 && channel.recipientId === user.id) return channel;
    const channel: FakeDiscordChannel = { id: this.nextId(), type: 1, name: '', recipientId: user.id };
    this.channels.set(channel.id, channel);
    return channel;
  }

  addMessage(message: FakeDiscordMessage): void {
    this.messages.set(message.id, message);
    const order = this.channelOrder.get(message.channelId) ?? [];
    order.push(message.id);
    this.channelOrder.set(message.channelId, order);
  }

  channelMessages(channelId: string): FakeDiscordMessage[] {
    const ids = this.channelOrder.get(channelId) ?? [];
    return ids
      .map((id) => this.messages.get(id))
      .filter((message) => message && !message.deleted) as FakeDiscordMessage[];
  }

  userPayload(user: FakeDiscordUser) {
    return {
      id: user.id,
      username: user.username,
      discriminator: '0',
      global_name: null,
      avatar: null,
      ...(user.bot ? { bot: true } : {}),
    };
  }

  channelPayload(channel: FakeDiscordChannel) {
    if (channel.type === 1) {
      const recipient = this.users.get(channel.recipientId ?? '');
      return {
        id: channel.id,
        type: 1,
        last_message_id: null,
        flags: 0,
        recipients: recipient ? [this.userPayload(recipient)] : [],
      };
    }
    if (channel.type === 11 || channel.type === 12) return threadPayload(this, channel);
    if (channel.type === 15) return forumPayload(channel);
    return textChannelPayload(channel);
  }

  messagePayload(message: FakeDiscordMessage, depth = 0): Record<string, unknown> {
    const channel = this.channels.get(message.channelId);
    const replied = message.replyTo ? this.messages.get(message.replyTo) : undefined;
    const payload: Record<string, unknown> = {
      id: message.id,
      type: message.replyTo ? 19 : 0,
      channel_id: message.channelId,
      author: this.userPayload(message.author),
      content: message.content,
      timestamp: message.timestamp,
      edited_timestamp: message.editedTimestamp ?? null,
      tts: false,
      mention_everyone: false,
      mentions: message.mentions
        .map((id) => this.users.get(id))
        .filter((user): user is FakeDiscordUser => user !== undefined)
        .map((user) => this.userPayload(user)),
      mention_roles: [],
      attachments: (message.attachments ?? []).map(attachmentPayload),
      embeds: [],
      pinned: false,
      flags: message.flags,
      components: componentsPayload(message.components),
    };
    if (message.nonce !== undefined) payload.nonce = message.nonce;
    if (channel) payload.channel_type = channel.type;
    if (message.guildId) {
      payload.guild_id = message.guildId;
      if (!message.author.bot || message.author.id === this.botUser.id)
        payload.member = { roles: [], joined_at: message.timestamp, deaf: false, mute: false, flags: 0 };
    }
    if (message.replyTo) {
      payload.message_reference = {
        type: 0,
        message_id: message.replyTo,
        channel_id: message.channelId,
        ...(message.guildId ? { guild_id: message.guildId } : {}),
      };
      payload.referenced_message = replied && depth === 0 ? this.messagePayload(replied, 1) : null;
    }
    return payload;
  }

  guildCreatePayload(guild: FakeDiscordGuild) {
    const joinedAt = new Date().toISOString();
    return {
      id: guild.id,
      name: guild.name,
      icon: null,
      splash: null,
      discovery_splash: null,
      owner_id: this.user({ username: 'owner' }).id,
      afk_channel_id: null,
      afk_timeout: 300,
      verification_level: 0,
      default_message_notifications: 0,
      explicit_content_filter: 0,
      roles: [
        {
          id: guild.id,
          name: '@everyone',
          color: 0,
          hoist: false,
          position: 0,
          permissions: '1071698660929',
          managed: false,
          mentionable: false,
          flags: 0,
        },
      ],
      emojis: [],
      stickers: [],
      features: [],
      mfa_level: 0,
      application_id: null,
      system_channel_id: null,
      system_channel_flags: 0,
      rules_channel_id: null,
      public_updates_channel_id: null,
      joined_at: joinedAt,
      large: false,
      unavailable: false,
      member_count: 2,
      voice_states: [],
      members: [
        {
          user: this.userPayload(this.botUser),
          roles: [],
          joined_at: joinedAt,
          deaf: false,
          mute: false,
          flags: 0,
        },
      ],
      channels: guild.channels.map((channel) => {
        const { guild_id: _omit, ...rest } = this.channelPayload(channel) as Record<string, unknown>;
        return rest;
      }),
      // Active threads the bot can see; like the channels, without guild_id.
      threads: guild.threads
        .filter((thread) => botSeesThread(this, thread))
        .map((thread) => {
          const { guild_id: _omit, ...rest } = threadPayload(this, thread);
          return rest;
        }),
      presences: [],
      stage_instances: [],
      guild_scheduled_events: [],
      soundboard_sounds: [],
      max_members: 500_000,
      vanity_url_code: null,
      description: null,
      banner: null,
      premium_tier: 0,
      premium_subscription_count: 0,
      preferred_locale: 'en-US',
      nsfw_level: 0,
      premium_progress_bar_enabled: false,
    };
  }
}
