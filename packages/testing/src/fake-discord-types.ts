import type {
  FakeDiscordActionRow,
  FakeDiscordClickOptions,
  FakeDiscordCommand,
  FakeDiscordInteraction,
  FakeDiscordInteractionOptions,
} from './fake-discord-interaction-types.js';

export type {
  FakeDiscordActionRow,
  FakeDiscordButton,
  FakeDiscordClickOptions,
  FakeDiscordCommand,
  FakeDiscordInteraction,
  FakeDiscordInteractionOptions,
} from './fake-discord-interaction-types.js';

/** A Discord user as the fake knows it. */
export interface FakeDiscordUser {
  /** Snowflake id. */
  id: string;
  username: string;
  /** True for bot accounts (the fake's own bot user included). */
  bot: boolean;
}

/**
 * A channel the fake serves: a guild text channel (type 0), a DM (1), a public thread (11), a
 * private thread (12) or a forum channel (15, whose posts are public threads).
 */
export interface FakeDiscordChannel {
  id: string;
  /** Channel type as Discord numbers it: 0 guild text, 1 DM, 11 public thread, 12 private thread, 15 forum. */
  type: 0 | 1 | 11 | 12 | 15;
  /** Name of a guild channel or thread; empty for DMs. */
  name: string;
  /** Guild of a guild channel or thread. */
  guildId?: string;
  /** The other user of a DM channel. */
  recipientId?: string;
  /** A thread's parent: the text or forum channel it lives under. */
  parentId?: string;
  /** Who started a thread. */
  ownerId?: string;
  /** Ids of a thread's members; the bot hears a private thread only while it is one of them. */
  memberIds?: string[];
  /** ISO time a thread was created. */
  createdAt?: string;
}

/** A thread to make: in a guild's options (sent in GUILD_CREATE) or at run time with {@link FakeDiscord.createThread}. */
export interface FakeDiscordThreadOptions {
  /** The parent channel, by id or by name: a text channel, or a forum channel for a forum post. */
  parent: string;
  /** Snowflake id. Default: a fresh one. */
  id?: string;
  /** Default `"thread"`. */
  name?: string;
  /** A private thread (type 12) instead of a public one (type 11). Not allowed under a forum. Default false. */
  private?: boolean;
  /** Who starts it; a username alone gets a stable id. Default `{ username: 'alice' }`. */
  owner?: { id?: string; username?: string; bot?: boolean };
  /** Whether the bot is a member. Default true; a private thread without the bot is not sent to it. */
  botIsMember?: boolean;
  /**
   * The starter message of a forum post, by the owner, with the thread's id as Discord does;
   * required under a forum, not allowed elsewhere. At run time it follows THREAD_CREATE as MESSAGE_CREATE.
   */
  message?: { content: string; mentionsBot?: boolean };
}

/** A guild (server) the bot is in, announced in READY and sent as GUILD_CREATE. */
export interface FakeDiscordGuild {
  id: string;
  name: string;
  /** Text and forum channels (threads are in `threads`). */
  channels: FakeDiscordChannel[];
  /** Active threads, sent in GUILD_CREATE's `threads` (private ones only when the bot is in them). */
  threads: FakeDiscordChannel[];
}

/** A message in the fake's store, as it currently stands (edits applied). */
export interface FakeDiscordMessage {
  id: string;
  channelId: string;
  guildId?: string;
  author: FakeDiscordUser;
  content: string;
  /** Ids of the users the message mentions. */
  mentions: string[];
  /** The message this one replies to. */
  replyTo?: string;
  nonce?: string;
  flags: number;
  /** ISO time of creation. */
  timestamp: string;
  /** ISO time of the last edit, if any. */
  editedTimestamp?: string;
  /** True once deleted; deleted messages stay in the store for the record. */
  deleted: boolean;
  /** Reactions the bot added (`PUT .../reactions/:emoji/@me`). */
  reactions?: Array<{ emoji: string; userId: string }>;
  /** Files attached, served by the fake's CDN at `url`. */
  attachments?: FakeDiscordAttachment[];
  /** Message components (action rows of buttons), as the bot last set them. */
  components?: FakeDiscordActionRow[];
  /** An ephemeral interaction reply (flag 64): the one user who sees it, the interaction's user. */
  visibleTo?: string;
}

/**
 * A file attached to a message; the fake serves its bytes at `url`, a link signed like Discord's
 * (`?ex=…&is=…&hm=…`): the same path without its query is refused with 404.
 */
export interface FakeDiscordAttachment {
  id: string;
  filename: string;
  contentType: string;
  size: number;
  url: string;
  /** A voice message's length in seconds (`duration_secs`). */
  durationSecs?: number;
  /** A voice message's waveform (`waveform`, base64 of up to 256 loudness bytes). */
  waveform?: string;
}

/** One thing the bot did to a message over REST, in the order the fake accepted it. */
export type FakeDiscordSentRecord =
  | {
      type: 'create';
      channelId: string;
      messageId: string;
      content: string;
      /** The message replied to (`message_reference.message_id`). */
      replyTo?: string;
      nonce?: string;
      flags: number;
      /** `allowed_mentions` as sent. */
      allowedMentions?: unknown;
      /** The components, when the message has any. */
      components?: FakeDiscordActionRow[];
      /** Files uploaded with it (multipart `files[n]`), served on the fake's CDN. */
      attachments?: FakeDiscordAttachment[];
      /** An ephemeral interaction reply: the one user who sees it. */
      visibleTo?: string;
      at: number;
    }
  | {
      type: 'edit';
      channelId: string;
      messageId: string;
      content: string;
      flags?: number;
      /** The components after the edit, when the edit set them. */
      components?: FakeDiscordActionRow[];
      at: number;
    }
  | { type: 'delete'; channelId: string; messageId: string; at: number };

/** Every REST request the fake received, with the status it answered. */
export interface FakeDiscordRequestRecord {
  method: string;
  /** Path below the API version, e.g. `/channels/123/messages`. */
  path: string;
  status: number;
  body: unknown;
  at: number;
}

/** A failure injected by {@link FakeDiscord.failNext}. */
export interface FakeDiscordFailure {
  /** Seconds sent as `retry_after` (body) and `Retry-After` (header) on 429. Default 0.05. */
  retryAfter?: number;
  /** How many matching requests fail. Default 1. */
  times?: number;
  /** How many matching requests pass before the failures start. Default 0. */
  skip?: number;
  /** 429 only: mark the limit global (`X-RateLimit-Global`). Default false. */
  global?: boolean;
  /**
   * Apply the request (create or edit the message) and only then answer with the failure, as
   * when Discord's answer is lost after it did the work. Default false.
   */
  afterCommit?: boolean;
}

/** What {@link FakeDiscord.dispatchMessage} sends through the gateway as MESSAGE_CREATE. */
export interface FakeDiscordDispatchOptions {
  content: string;
  /**
   * Target channel or thread. Default: the first channel of the first guild, or the author's DM
   * when `dm`. In a private thread without the bot, a mention adds the bot (THREAD_CREATE with
   * its `member`, as Discord does); otherwise the bot is not sent the message.
   */
  channelId?: string;
  /** Author; a username alone gets a stable id. Default `{ username: 'alice' }`. */
  author?: { id?: string; username?: string; bot?: boolean };
  /** Mention the bot: adds it to `mentions` and `<@botId> ` to the content when absent. */
  mentionsBot?: boolean;
  /** Send as a DM from the author (a DM channel is made on first use). */
  dm?: boolean;
  /** Reply to this message id (sets `message_reference` and `referenced_message`). */
  replyTo?: string;
  /**
   * Files to attach; their bytes are served at each attachment's signed `url` on the fake's CDN.
   * An attachment with `durationSecs` and `waveform` makes the message a voice message (flag
   * IS_VOICE_MESSAGE, 1 << 13), as Discord's clients send them.
   */
  attachments?: Array<{
    filename: string;
    contentType: string;
    data: Uint8Array | string;
    durationSecs?: number;
    waveform?: string;
  }>;
}

/** A reaction a user adds, sent as MESSAGE_REACTION_ADD (to sessions with the reaction intents). */
export interface FakeDiscordReactionOptions {
  messageId: string;
  /** A unicode emoji, e.g. `"❌"`. */
  emoji: string;
  /** Who reacts; a username alone gets a stable id. Default `{ username: 'alice' }`. */
  user?: { id?: string; username?: string; bot?: boolean };
}

/** Options of {@link startFakeDiscord}. */
export interface FakeDiscordOptions {
  /** When set, REST answers 401 and the gateway closes 4004 for any other token. Default: any token. */
  token?: string;
  /** The bot user. Default `{ username: 'macstats' }` with a fresh id. */
  botUser?: { id?: string; username?: string };
  /**
   * Guilds the bot is in. Default: one guild, "Fake Guild", with `general` and `random`. A channel
   * given as an object may be a forum (`type: 'forum'`); `threads` are active threads in GUILD_CREATE.
   */
  guilds?: Array<{
    id?: string;
    name?: string;
    channels?: Array<string | { id?: string; name: string; type?: 'text' | 'forum' }>;
    threads?: Array<Omit<FakeDiscordThreadOptions, 'message'>>;
  }>;
  /** Whether the portal has the privileged intents on; when false, asking for them closes 4014. Default true. */
  allowPrivilegedIntents?: boolean;
  /**
   * `flags` of `GET /applications/@me`. Default: with `allowPrivilegedIntents`, the three
   * `GATEWAY_*_LIMITED` flags (presence 1<<13, guild members 1<<15, message content 1<<19) that
   * Discord sets when the portal's toggles are on for an unverified bot; without, 0.
   */
  applicationFlags?: number;
  /** `heartbeat_interval` sent in HELLO. Default 41250. */
  heartbeatIntervalMs?: number;
  /** Send MESSAGE_CREATE/UPDATE/DELETE for the bot's own REST actions, as Discord does. Default true. */
  echoOwnMessages?: boolean;
  /**
   * How long a create-message `nonce` sent with `enforce_nonce: true` is remembered: a repeat by
   * the same author within it returns the first message instead of posting again ("the past few
   * minutes", Discord says). Default 120000; 0 remembers none.
   */
  nonceWindowMs?: number;
  /**
   * Enforce a rate limit per route and channel: at most `limit` requests per `windowMs`,
   * then real 429s. Default: no limit (headers still report a large one).
   */
  rateLimit?: { limit: number; windowMs: number };
  /** Host to bind. Default `127.0.0.1`. */
  host?: string;
  /** Port to bind. Default 0, a free port. */
  port?: number;
}

/** The state of the gateway as the fake sees it. */
export interface FakeDiscordGatewayState {
  /** Open WebSocket connections. */
  connections: number;
  /** IDENTIFY payloads accepted. */
  identifies: number;
  /** RESUME payloads accepted. */
  resumes: number;
  /** RESUME payloads refused with op 9 (invalid session). */
  refusedResumes: number;
  /** Sessions that received READY (or RESUMED) and have an open socket. */
  readySessions: number;
  /** Intents of the last IDENTIFY. */
  intents?: number;
  /** Heartbeats received. */
  heartbeats: number;
}

/** A running fake Discord. */
export interface FakeDiscord {
  /** REST base for discord.js's `rest.api` and for `createDiscordBot({ apiUrl })`, e.g. `http://127.0.0.1:40123/api`. */
  apiUrl: string;
  /** Origin of the fake's CDN, where attachments are served (`http://127.0.0.1:PORT`). */
  cdnOrigin: string;
  /** The gateway URL that `GET /gateway/bot` hands out. */
  gatewayUrl: string;
  /** The bot user. */
  botUser: FakeDiscordUser;
  /** The guilds the bot is in, with their channels. */
  guilds: FakeDiscordGuild[];
  /** Every create, edit and delete the bot made, in order. Retries deduplicated by nonce are not repeated. */
  sent: FakeDiscordSentRecord[];
  /** Every typing indicator the bot triggered. */
  typing: Array<{ channelId: string; at: number }>;
  /** Every REST request, in order, with its answer's status. */
  requests: FakeDiscordRequestRecord[];
  /** The gateway's counters. */
  readonly gateway: FakeDiscordGatewayState;
  /** Sends MESSAGE_CREATE to every session (queued for resume when the socket is down) and returns the message. */
  dispatchMessage(options: FakeDiscordDispatchOptions): FakeDiscordMessage;
  /**
   * Starts a thread (or forum post) and sends THREAD_CREATE with `newly_created` (and the bot's
   * `member` when it is in it), then a forum post's starter message; returns the thread.
   */
  createThread(options: FakeDiscordThreadOptions): FakeDiscordChannel;
  /**
   * A user uses a registered slash command (or types in one of its autocomplete options):
   * INTERACTION_CREATE through the gateway. The record fills in as the bot answers.
   */
  dispatchInteraction(options: FakeDiscordInteractionOptions): FakeDiscordInteraction;
  /**
   * A user clicks a button of a message: INTERACTION_CREATE with type 3 (message component),
   * `data.custom_id`, `data.component_type` 2 and the `message`. Throws when the message has no
   * enabled button with that `custom_id` (nobody could click it). The record fills in as the bot
   * answers (`responses`; type 7 edits the message, 4 with flag 64 is an ephemeral reply).
   */
  clickButton(options: FakeDiscordClickOptions): FakeDiscordInteraction;
  /** The application commands registered now. */
  commands(): FakeDiscordCommand[];
  /** A user adds a reaction to a message: MESSAGE_REACTION_ADD through the gateway. */
  addReaction(reaction: FakeDiscordReactionOptions): void;
  /** A channel or thread by id. */
  channel(id: string): FakeDiscordChannel | undefined;
  /** The channel's messages in order, edits applied, deleted ones left out. */
  channelMessages(channelId: string): FakeDiscordMessage[];
  /** A stored message by id. */
  message(id: string): FakeDiscordMessage | undefined;
  /**
   * Whether `userId` can see the bot's message `messageId`: a guild channel's message every member
   * sees (the fake has no per-channel permissions), a DM only its recipient, an ephemeral
   * interaction reply only the user who used the interaction. Deleted messages count: they were
   * up until deleted.
   */
  canSee(userId: string, messageId: string): boolean;
  /**
   * Every text of the bot's messages that `userId` could read: each message's content as created
   * and after each edit, deleted messages included (they were up for a while).
   */
  textsSeenBy(userId: string): string[];
  /**
   * Fails the next request matching `route` (`"POST /channels/:id/messages"`, params as `:name`
   * or literal ids) with `status`; the third argument is `retry_after` in seconds or options.
   */
  failNext(route: string, status: number, retryAfterOrOptions?: number | FakeDiscordFailure): void;
  /** Drops the failures `failNext` queued that have not happened yet: Discord answers again. */
  clearFailures(): void;
  /**
   * Drops every gateway socket without a close frame (code 1006). Sessions stay resumable (missed
   * events are replayed on RESUME) unless `refuseResume`: then the sessions end, a RESUME is
   * answered with op 9 (`d: false`), and events sent before the next IDENTIFY are lost to the bot.
   */
  dropGateway(options?: { refuseResume?: boolean }): void;
  /**
   * Resolves with the predicate's first truthy value, checked on every change of the fake and
   * every 10 ms (for state outside it); rejects after `timeoutMs` (default 30000).
   */
  waitFor<T>(
    predicate: () => T | undefined | null | false,
    options?: { timeoutMs?: number; what?: string },
  ): Promise<T>;
  /** Calls `listener` for every create, edit and delete as it is recorded; returns the unsubscribe function. */
  onRecord(listener: (record: FakeDiscordSentRecord) => void): () => void;
  /** Closes sockets and the server. */
  close(): Promise<void>;
}
