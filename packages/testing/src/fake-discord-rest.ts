import { GATEWAY_INTENTS } from './fake-discord-gateway.js';
import { createMessage, editMessage } from './fake-discord-messages.js';
import {
  error,
  formError,
  postProblem,
  type RestContext,
  type RestResult,
  unknownChannel,
  unknownMessage,
} from './fake-discord-rest-parts.js';
import type { FakeDiscordStore } from './fake-discord-store.js';
import { botSeesThread } from './fake-discord-threads.js';
import type { FakeDiscordMessage } from './fake-discord-types.js';

export type { RestContext, RestResult } from './fake-discord-rest-parts.js';

type Handler = (params: Record<string, string>, body: unknown, query: URLSearchParams) => RestResult;

/** A route of the fake REST API; `template` is the path with `:name` parameters. */
export interface RestRoute {
  method: string;
  template: string;
  pattern: RegExp;
  names: string[];
  handler: Handler;
}

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
    createMessage(context, channelId ?? '', body),
  );
  route('PATCH', '/channels/:channelId/messages/:messageId', ({ channelId, messageId }, body) =>
    editMessage(context, channelId ?? '', messageId ?? '', body),
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
