import { IS_VOICE_MESSAGE, uploadedAttachments } from './fake-discord-attachments.js';
import { isRefusal, readComponents } from './fake-discord-components.js';
import { GATEWAY_INTENTS } from './fake-discord-gateway.js';
import type { FakeDiscordStore } from './fake-discord-store.js';
import { botSeesThread } from './fake-discord-threads.js';
import type { FakeDiscordChannel, FakeDiscordMessage, FakeDiscordSentRecord } from './fake-discord-types.js';

/** What a REST handler answers. */
export interface RestResult {
  status: number;
  body?: unknown;
}

/** What the REST routes need from the rest of the fake. */
export interface RestContext {
  store: FakeDiscordStore;
  gatewayUrl: string;
  echoOwnMessages: boolean;
  /** See `FakeDiscordOptions.nonceWindowMs`. */
  nonceWindowMs: number;
  /** `flags` of `GET /applications/@me`. */
  applicationFlags: number;
  record(record: FakeDiscordSentRecord): void;
  recordTyping(channelId: string): void;
  /** Sends a message event through the gateway, filtered per session by intents. */
  dispatchMessageEvent(t: 'MESSAGE_CREATE' | 'MESSAGE_UPDATE', message: FakeDiscordMessage): void;
  dispatchRaw(t: string, d: unknown, guildId: string | undefined): void;
}

type Handler = (params: Record<string, string>, body: unknown, query: URLSearchParams) => RestResult;

/** A route of the fake REST API; `template` is the path with `:name` parameters. */
export interface RestRoute {
  method: string;
  template: string;
  pattern: RegExp;
  names: string[];
  handler: Handler;
}

const MAX_CONTENT_LENGTH = 2000;
/** Flags a bot may set on a message: SUPPRESS_EMBEDS, SUPPRESS_NOTIFICATIONS, IS_VOICE_MESSAGE. */
const SETTABLE_FLAGS = (1 << 2) | (1 << 12) | IS_VOICE_MESSAGE;

/** Turns `/channels/:id/messages` into a regular expression and its parameter names. */
export function compileTemplate(template: string): { pattern: RegExp; names: string[] } {
  const names: string[] = [];
  const source = template
    .split('/')
    .map((segment) => {
      if (segment.startsWith(':')) {
        names.push(segment.slice(1));
        return '([^/]+)';
      }
      return segment.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
    })
    .join('/');
  return { pattern: new RegExp(`^${source}$`), names };
}

function error(status: number, code: number, message: string): RestResult {
  return { status, body: { message, code } };
}

function formError(field: string, code: string, message: string): RestResult {
  return {
    status: 400,
    body: {
      message: 'Invalid Form Body',
      code: 50035,
      errors: { [field]: { _errors: [{ code, message }] } },
    },
  };
}

const unknownChannel = () => error(404, 10003, 'Unknown Channel');
const unknownMessage = () => error(404, 10008, 'Unknown Message');

/** Why the bot cannot post (or type) in `channel`: a forum holds only posts; a private thread only its members. */
function postProblem(store: FakeDiscordStore, channel: FakeDiscordChannel): RestResult | undefined {
  if (channel.type === 15) return error(400, 50008, 'Cannot send messages in a non-text channel');
  if (!botSeesThread(store, channel)) return error(403, 50001, 'Missing Access');
  return undefined;
}

function checkContent(content: unknown, required: boolean): RestResult | undefined {
  if (content !== undefined && content !== null && typeof content !== 'string')
    return formError('content', 'STRING_TYPE_CONVERT', 'Could not interpret the value as string.');
  const text = typeof content === 'string' ? content : '';
  // Discord counts code points, not UTF-16 units.
  if ([...text].length > MAX_CONTENT_LENGTH)
    return formError('content', 'BASE_TYPE_MAX_LENGTH', `Must be ${MAX_CONTENT_LENGTH} or fewer in length.`);
  if (required && text.trim() === '') return error(400, 50006, 'Cannot send an empty message');
  return undefined;
}

/** The REST routes of the fake, below `/api/v10`. */
export function createRestRoutes(context: RestContext): RestRoute[] {
  const { store } = context;
  const bot = store.botUser;
  const routes: Array<[string, string, Handler]> = [];
  const route = (method: string, template: string, handler: Handler) =>
    routes.push([method, template, handler]);

  const gateway = () => ({ status: 200, body: { url: context.gatewayUrl } });
  route('GET', '/gateway', gateway);
  route('GET', '/gateway/bot', () => ({
    status: 200,
    body: {
      url: context.gatewayUrl,
      shards: 1,
      session_start_limit: { total: 1000, remaining: 999, reset_after: 14_400_000, max_concurrency: 1 },
    },
  }));
  route('GET', '/users/@me', () => ({
    status: 200,
    body: { ...store.userPayload(bot), verified: true, flags: 0 },
  }));
  route('GET', '/users/:userId', ({ userId }) => {
    // discord.js may send `@me` percent-encoded (`%40me`), which Discord reads as `@me` too.
    if (userId === '@me')
      return { status: 200, body: { ...store.userPayload(bot), verified: true, flags: 0 } };
    const user = store.users.get(userId ?? '');
    return user ? { status: 200, body: store.userPayload(user) } : error(404, 10013, 'Unknown User');
  });
  route('GET', '/applications/@me', () => ({
    status: 200,
    body: {
      id: store.applicationId,
      name: bot.username,
      description: '',
      bot_public: true,
      flags: context.applicationFlags,
    },
  }));
  route('POST', '/users/@me/channels', (_params, body) => {
    const recipientId = (body as { recipient_id?: unknown } | undefined)?.recipient_id;
    const user = typeof recipientId === 'string' ? store.users.get(recipientId) : undefined;
    if (!user) return formError('recipient_id', 'NUMBER_TYPE_COERCE', 'Value is not snowflake.');
    return { status: 200, body: store.channelPayload(store.dmChannel(user)) };
  });
  route('GET', '/guilds/:guildId', ({ guildId }) => {
    const guild = store.guilds.find((candidate) => candidate.id === guildId);
    if (!guild) return error(404, 10004, 'Unknown Guild');
    const { channels: _channels, ...rest } = store.guildCreatePayload(guild);
    return { status: 200, body: rest };
  });
  route('GET', '/guilds/:guildId/channels', ({ guildId }) => {
    const guild = store.guilds.find((candidate) => candidate.id === guildId);
    if (!guild) return error(404, 10004, 'Unknown Guild');
    return { status: 200, body: guild.channels.map((channel) => store.channelPayload(channel)) };
  });
  route('GET', '/channels/:channelId', ({ channelId }) => {
    const channel = store.channels.get(channelId ?? '');
    if (!channel) return unknownChannel();
    if (!botSeesThread(store, channel)) return error(403, 50001, 'Missing Access');
    return { status: 200, body: store.channelPayload(channel) };
  });
  route('GET', '/channels/:channelId/messages', ({ channelId }, _body, query) => {
    if (!store.channels.has(channelId ?? '')) return unknownChannel();
    const limit = Math.min(100, Math.max(1, Number(query.get('limit') ?? 50) || 50));
    const messages = pageOf(store.channelMessages(channelId ?? ''), query, limit);
    return { status: 200, body: messages.map((message) => store.messagePayload(message)) };
  });
  route('GET', '/channels/:channelId/messages/:messageId', ({ channelId, messageId }) => {
    const message = store.messages.get(messageId ?? '');
    if (!message || message.deleted || message.channelId !== channelId) return unknownMessage();
    return { status: 200, body: store.messagePayload(message) };
  });
  route(
    'PUT',
    '/channels/:channelId/messages/:messageId/reactions/:emoji/@me',
    ({ channelId, messageId, emoji }) => {
      const message = store.messages.get(messageId ?? '');
      if (!message || message.deleted || message.channelId !== channelId) return unknownMessage();
      message.reactions ??= [];
      const reactions = message.reactions;
      if (!reactions.some((reaction) => reaction.emoji === emoji && reaction.userId === bot.id))
        reactions.push({ emoji: emoji ?? '', userId: bot.id });
      return { status: 204 };
    },
  );
  route('POST', '/channels/:channelId/typing', ({ channelId }) => {
    const channel = store.channels.get(channelId ?? '');
    if (!channel) return unknownChannel();
    const problem = postProblem(store, channel);
    if (problem) return problem;
    context.recordTyping(channelId ?? '');
    return { status: 204 };
  });
  route('POST', '/channels/:channelId/messages', ({ channelId }, body) =>
    createMessage(channelId ?? '', body),
  );
  route('PATCH', '/channels/:channelId/messages/:messageId', ({ channelId, messageId }, body) =>
    editMessage(channelId ?? '', messageId ?? '', body),
  );
  route('DELETE', '/channels/:channelId/messages/:messageId', ({ channelId, messageId }) => {
    const message = store.messages.get(messageId ?? '');
    if (!message || message.deleted || message.channelId !== channelId) return unknownMessage();
    if (message.author.id !== bot.id) return error(403, 50013, 'Missing Permissions');
    message.deleted = true;
    context.record({ type: 'delete', channelId: message.channelId, messageId: message.id, at: Date.now() });
    if (context.echoOwnMessages)
      context.dispatchRaw(
        'MESSAGE_DELETE',
        {
          id: message.id,
          channel_id: message.channelId,
          ...(message.guildId ? { guild_id: message.guildId } : {}),
        },
        message.guildId,
      );
    return { status: 204 };
  });

  function createMessage(channelId: string, rawBody: unknown): RestResult {
    const channel = store.channels.get(channelId);
    if (!channel) return unknownChannel();
    const problem = postProblem(store, channel);
    if (problem) return problem;
    const body = (rawBody ?? {}) as Record<string, unknown>;
    const components = body.components === undefined ? [] : readComponents(body.components);
    if (isRefusal(components)) return components;
    const hasEmbeds = Array.isArray(body.embeds) && body.embeds.length > 0;
    const attachments = uploadedAttachments(body, store, channelId);
    if (!Array.isArray(attachments)) return attachments;
    const contentProblem = checkContent(
      body.content,
      !hasEmbeds && components.length === 0 && attachments.length === 0,
    );
    if (contentProblem) return contentProblem;
    const nonce = body.nonce;
    if (
      nonce !== undefined &&
      nonce !== null &&
      !(typeof nonce === 'string' && nonce.length <= 25) &&
      !Number.isInteger(nonce)
    )
      return formError('nonce', 'BASE_TYPE_MAX_LENGTH', 'Must be 25 or fewer in length.');
    const nonceText = nonce === undefined || nonce === null ? undefined : String(nonce);
    if (nonceText !== undefined && body.enforce_nonce === true) {
      // Discord returns the message the same author made with this nonce in the past few minutes
      // instead of making another.
      const since = Date.now() - context.nonceWindowMs;
      const existing = store
        .channelMessages(channelId)
        .find(
          (message) =>
            message.nonce === nonceText &&
            message.author.id === bot.id &&
            Date.parse(message.timestamp) > since,
        );
      if (existing) return { status: 200, body: store.messagePayload(existing) };
    }
    const reference = body.message_reference as
      | { message_id?: unknown; fail_if_not_exists?: unknown }
      | undefined;
    let replyTo: string | undefined;
    if (reference && typeof reference.message_id === 'string') {
      const target = store.messages.get(reference.message_id);
      if (target && !target.deleted && target.channelId === channelId) replyTo = target.id;
      else if (reference.fail_if_not_exists !== false)
        return formError('message_reference', 'REPLIES_UNKNOWN_MESSAGE', 'Unknown message');
    }
    const message: FakeDiscordMessage = {
      id: store.nextId(),
      channelId,
      ...(channel.guildId ? { guildId: channel.guildId } : {}),
      author: bot,
      content: typeof body.content === 'string' ? body.content : '',
      mentions: [],
      ...(replyTo ? { replyTo } : {}),
      ...(nonceText !== undefined ? { nonce: nonceText } : {}),
      flags: typeof body.flags === 'number' ? body.flags & SETTABLE_FLAGS : 0,
      timestamp: new Date().toISOString(),
      deleted: false,
      ...(components.length > 0 ? { components } : {}),
      ...(attachments.length > 0 ? { attachments } : {}),
    };
    store.addMessage(message);
    context.record({
      type: 'create',
      channelId,
      messageId: message.id,
      content: message.content,
      ...(replyTo ? { replyTo } : {}),
      ...(nonceText !== undefined ? { nonce: nonceText } : {}),
      flags: message.flags,
      ...(body.allowed_mentions !== undefined ? { allowedMentions: body.allowed_mentions } : {}),
      ...(components.length > 0 ? { components } : {}),
      ...(attachments.length > 0 ? { attachments } : {}),
      at: Date.now(),
    });
    if (context.echoOwnMessages) context.dispatchMessageEvent('MESSAGE_CREATE', message);
    return { status: 200, body: store.messagePayload(message) };
  }

  function editMessage(channelId: string, messageId: string, rawBody: unknown): RestResult {
    if (!store.channels.has(channelId)) return unknownChannel();
    const message = store.messages.get(messageId);
    if (!message || message.deleted || message.channelId !== channelId) return unknownMessage();
    if (message.author.id !== bot.id)
      return error(403, 50005, 'Cannot edit a message authored by another user');
    if ((message.flags & IS_VOICE_MESSAGE) !== 0)
      return error(400, 50162, 'Voice messages cannot be edited.');
    const body = (rawBody ?? {}) as Record<string, unknown>;
    const contentProblem = checkContent(body.content, body.content !== undefined);
    if (contentProblem) return contentProblem;
    const components = body.components === undefined ? undefined : readComponents(body.components);
    if (components && isRefusal(components)) return components;
    if (typeof body.content === 'string') message.content = body.content;
    if (typeof body.flags === 'number') message.flags = body.flags & SETTABLE_FLAGS;
    if (components) message.components = components;
    message.editedTimestamp = new Date().toISOString();
    context.record({
      type: 'edit',
      channelId,
      messageId,
      content: message.content,
      ...(typeof body.flags === 'number' ? { flags: message.flags } : {}),
      ...(components ? { components } : {}),
      at: Date.now(),
    });
    if (context.echoOwnMessages) context.dispatchMessageEvent('MESSAGE_UPDATE', message);
    return { status: 200, body: store.messagePayload(message) };
  }

  return routes.map(([method, template, handler]) => ({
    method,
    template,
    ...compileTemplate(template),
    handler,
  }));
}

/**
 * One page of a channel's history as Discord pages it, newest first: the `limit` messages just
 * after `after`, just before `before`, around `around`, or the newest ones.
 */
function pageOf(all: FakeDiscordMessage[], query: URLSearchParams, limit: number): FakeDiscordMessage[] {
  const after = query.get('after');
  const before = query.get('before');
  const around = query.get('around');
  const byId = (id: string) => BigInt(id);
  let page: FakeDiscordMessage[];
  if (after !== null && /^\d+$/.test(after))
    page = all.filter((message) => byId(message.id) > byId(after)).slice(0, limit);
  else if (before !== null && /^\d+$/.test(before))
    page = all.filter((message) => byId(message.id) < byId(before)).slice(-limit);
  else if (around !== null && /^\d+$/.test(around)) {
    const index = all.findIndex((message) => byId(message.id) >= byId(around));
    const start = Math.max(0, (index === -1 ? all.length : index) - Math.floor(limit / 2));
    page = all.slice(start, start + limit);
  } else page = all.slice(-limit);
  return page.reverse();
}

/** What a session with `intents` sees of a message event; `undefined` when its intents exclude it. */
export function messageEventView(
  store: FakeDiscordStore,
  message: FakeDiscordMessage,
): (intents: number) => Record<string, unknown> | undefined {
  const payload = store.messagePayload(message);
  return (intents) => {
    const isDm = message.guildId === undefined;
    if (isDm && (intents & GATEWAY_INTENTS.directMessages) === 0) return undefined;
    if (!isDm && (intents & GATEWAY_INTENTS.guildMessages) === 0) return undefined;
    const exempt =
      isDm || message.author.id === store.botUser.id || message.mentions.includes(store.botUser.id);
    if ((intents & GATEWAY_INTENTS.messageContent) === 0 && !exempt)
      return { ...payload, content: '', embeds: [], attachments: [], components: [] };
    return payload;
  };
}
