import { randomBytes } from 'node:crypto';
import { clickableButton, isRefusal, readComponents } from './fake-discord-components.js';
import type { FakeGateway } from './fake-discord-gateway.js';
import { interactionPayload } from './fake-discord-interaction-payload.js';
import { compileTemplate, type RestResult, type RestRoute } from './fake-discord-rest.js';
import type { FakeDiscordStore } from './fake-discord-store.js';
import type {
  FakeDiscordClickOptions,
  FakeDiscordCommand,
  FakeDiscordInteraction,
  FakeDiscordInteractionOptions,
  FakeDiscordMessage,
  FakeDiscordSentRecord,
} from './fake-discord-types.js';

/** Discord's deadline for the first answer to an interaction. */
const INITIAL_RESPONSE_MS = 3000;
/** How long an interaction token works for follow-ups. */
const TOKEN_LIFETIME_MS = 15 * 60_000;
const EPHEMERAL = 1 << 6;
const LOADING = 1 << 7;
const SUPPRESS_EMBEDS = 1 << 2;
/** Flags an interaction response or follow-up may set: SUPPRESS_EMBEDS, EPHEMERAL, SUPPRESS_NOTIFICATIONS. */
const RESPONSE_FLAGS = SUPPRESS_EMBEDS | EPHEMERAL | (1 << 12);
const COMMAND_NAME = /^[-_\p{Ll}\p{N}]{1,32}$/u;

/** What the interaction routes need from the rest of the fake. */
export interface InteractionContext {
  store: FakeDiscordStore;
  gateway: FakeGateway;
  record(record: FakeDiscordSentRecord): void;
  dispatchMessageEvent(t: 'MESSAGE_CREATE' | 'MESSAGE_UPDATE', message: FakeDiscordMessage): void;
  onChange(): void;
}

interface Live extends FakeDiscordInteraction {
  createdAt: number;
}

const error = (status: number, code: number, message: string): RestResult => ({
  status,
  body: { message, code },
});

const isResult = (value: Live | RestResult): value is RestResult => 'status' in value;

/**
 * Application commands and interactions for the fake Discord: bulk registration
 * (`PUT /applications/:id/commands`), INTERACTION_CREATE for slash commands, autocomplete and
 * button clicks, the callback (`POST /interactions/:id/:token/callback`, answered once, within
 * 3 s; a click may update its message with type 6 or 7) and the
 * follow-up webhooks (`/webhooks/:app/:token`, `@original`), as the real discord.js client uses them.
 */
export function createInteractions(context: InteractionContext) {
  const { store } = context;
  const commands = new Map<string, FakeDiscordCommand>();
  const interactions = new Map<string, Live>();
  const routes: Array<[string, string, (params: Record<string, string>, body: unknown) => RestResult]> = [
    [
      'GET',
      '/applications/:appId/commands',
      ({ appId }) =>
        appId === store.applicationId
          ? { status: 200, body: [...commands.values()] }
          : error(404, 10002, 'Unknown Application'),
    ],
    [
      'PUT',
      '/applications/:appId/commands',
      ({ appId }, body) => {
        if (appId !== store.applicationId) return error(404, 10002, 'Unknown Application');
        if (!Array.isArray(body)) return error(400, 50035, 'Invalid Form Body');
        const next: FakeDiscordCommand[] = [];
        for (const raw of body as Array<Record<string, unknown>>) {
          const name = raw.name;
          if (typeof name !== 'string' || !COMMAND_NAME.test(name))
            return error(400, 50035, `Invalid Form Body: command name ${JSON.stringify(name)}`);
          const description = typeof raw.description === 'string' ? raw.description : '';
          if ((raw.type ?? 1) === 1 && (description.length < 1 || description.length > 100))
            return error(400, 50035, `Invalid Form Body: description of ${name}`);
          const existing = [...commands.values()].find((command) => command.name === name);
          next.push({
            id: existing?.id ?? store.nextId(),
            application_id: store.applicationId,
            version: store.nextId(),
            type: typeof raw.type === 'number' ? raw.type : 1,
            name,
            description,
            options: Array.isArray(raw.options) ? (raw.options as FakeDiscordCommand['options']) : [],
            default_member_permissions:
              typeof raw.default_member_permissions === 'string' ? raw.default_member_permissions : null,
            nsfw: false,
          });
        }
        commands.clear();
        for (const command of next) commands.set(command.id, command);
        context.onChange();
        return { status: 200, body: next };
      },
    ],
    [
      'POST',
      '/interactions/:interactionId/:token/callback',
      ({ interactionId, token }, rawBody) => {
        const live = interactions.get(interactionId ?? '');
        if (!live || live.token !== token || Date.now() - live.createdAt > INITIAL_RESPONSE_MS)
          return error(404, 10062, 'Unknown interaction');
        if (live.responses.length > 0) return error(400, 40060, 'Interaction has already been acknowledged.');
        const body = (rawBody ?? {}) as { type?: unknown; data?: Record<string, unknown> };
        const data = body.data ?? {};
        const flags = typeof data.flags === 'number' ? data.flags & RESPONSE_FLAGS : 0;
        if (body.type === 4 || body.type === 5) {
          if (live.type !== 2 && live.type !== 3)
            return error(400, 40060, 'Interaction has already been acknowledged.');
          const content = body.type === 4 && typeof data.content === 'string' ? data.content : '';
          live.originalId = postMessage(context, live, content, body.type === 5 ? flags | LOADING : flags).id;
        } else if (body.type === 6 || body.type === 7) {
          // DEFERRED_UPDATE_MESSAGE and UPDATE_MESSAGE: only a component's message can be updated.
          const message = live.type === 3 ? store.messages.get(live.messageId ?? '') : undefined;
          if (!message || message.deleted)
            return error(
              400,
              50035,
              `Invalid Form Body: response type ${body.type} needs a message component`,
            );
          if (body.type === 7) {
            const problem = editMessage(context, message, data);
            if (problem) return problem;
          }
          live.originalId = message.id;
        } else if (body.type === 8) {
          if (live.type !== 4)
            return error(400, 50035, 'Invalid Form Body: autocomplete result for a command');
          const choices = Array.isArray(data.choices) ? data.choices : [];
          if (choices.length > 25) return error(400, 50035, 'Invalid Form Body: more than 25 choices');
          live.choices = choices as Array<{ name: string; value: string | number }>;
        } else return error(400, 50035, `Invalid Form Body: response type ${String(body.type)}`);
        live.responses.push({ type: body.type, data, at: Date.now() });
        context.onChange();
        return { status: 204 };
      },
    ],
    [
      'PATCH',
      '/webhooks/:appId/:token/messages/:messageId',
      ({ appId, token, messageId }, body) => {
        const live = byToken(store, interactions, appId, token);
        if (isResult(live)) return live;
        const message = messageOf(store, live, messageId);
        if ('status' in message) return message;
        const problem = editMessage(context, message, (body ?? {}) as Record<string, unknown>);
        if (problem) return problem;
        context.onChange();
        return { status: 200, body: store.messagePayload(message) };
      },
    ],
    [
      'GET',
      '/webhooks/:appId/:token/messages/:messageId',
      ({ appId, token, messageId }) => {
        const live = byToken(store, interactions, appId, token);
        if (isResult(live)) return live;
        const message = messageOf(store, live, messageId);
        return 'status' in message ? message : { status: 200, body: store.messagePayload(message) };
      },
    ],
    [
      'POST',
      '/webhooks/:appId/:token',
      ({ appId, token }, rawBody) => {
        const live = byToken(store, interactions, appId, token);
        if (isResult(live)) return live;
        if (live.responses.length === 0) return error(404, 10015, 'Unknown Webhook');
        const body = (rawBody ?? {}) as Record<string, unknown>;
        const flags = typeof body.flags === 'number' ? body.flags & RESPONSE_FLAGS : 0;
        const message = postMessage(
          context,
          live,
          typeof body.content === 'string' ? body.content : '',
          flags,
        );
        live.followUpIds.push(message.id);
        context.onChange();
        return { status: 200, body: store.messagePayload(message) };
      },
    ],
  ];

  return {
    clickButton: (options: FakeDiscordClickOptions) => clickButton(context, interactions, options),
    routes: routes.map(
      ([method, template, handler]): RestRoute => ({
        method,
        template,
        ...compileTemplate(template),
        handler: (params, body) => handler(params, body),
      }),
    ),
    commands: () => [...commands.values()],
    dispatchInteraction: (options: FakeDiscordInteractionOptions) =>
      dispatchInteraction(context, { commands, interactions }, options),
  };
}

/** Posts the interaction's answer or follow-up as the bot. */
function postMessage(
  context: InteractionContext,
  live: Live,
  content: string,
  flags: number,
): FakeDiscordMessage {
  const { store } = context;
  const channel = store.channels.get(live.channelId);
  const message: FakeDiscordMessage = {
    id: store.nextId(),
    channelId: live.channelId,
    ...(channel?.guildId ? { guildId: channel.guildId } : {}),
    author: store.botUser,
    content,
    mentions: [],
    flags,
    timestamp: new Date().toISOString(),
    deleted: false,
    ...((flags & EPHEMERAL) !== 0 ? { visibleTo: live.userId } : {}),
  };
  store.addMessage(message);
  context.record({
    type: 'create',
    channelId: message.channelId,
    messageId: message.id,
    content,
    flags,
    ...(message.visibleTo !== undefined ? { visibleTo: message.visibleTo } : {}),
    at: Date.now(),
  });
  if ((flags & EPHEMERAL) === 0) context.dispatchMessageEvent('MESSAGE_CREATE', message);
  return message;
}

/** Edits a message the interaction owns; resolves with a refusal when its components are bad. */
function editMessage(
  context: InteractionContext,
  message: FakeDiscordMessage,
  body: Record<string, unknown>,
): RestResult | undefined {
  const components = body.components === undefined ? undefined : readComponents(body.components);
  if (components && isRefusal(components)) return components;
  if (typeof body.content === 'string') message.content = body.content;
  if (components) message.components = components;
  message.flags &= ~LOADING;
  // An edit can set or clear SUPPRESS_EMBEDS only; the other flags stay as they were.
  if (typeof body.flags === 'number')
    message.flags = (message.flags & ~SUPPRESS_EMBEDS) | (body.flags & SUPPRESS_EMBEDS);
  message.editedTimestamp = new Date().toISOString();
  context.record({
    type: 'edit',
    channelId: message.channelId,
    messageId: message.id,
    content: message.content,
    ...(typeof body.flags === 'number' ? { flags: message.flags } : {}),
    ...(components ? { components } : {}),
    at: Date.now(),
  });
  if ((message.flags & EPHEMERAL) === 0) context.dispatchMessageEvent('MESSAGE_UPDATE', message);
  return undefined;
}

/** Sends INTERACTION_CREATE for a registered command (or its autocomplete) and returns the live record. */
function dispatchInteraction(
  context: InteractionContext,
  state: { commands: Map<string, FakeDiscordCommand>; interactions: Map<string, Live> },
  options: FakeDiscordInteractionOptions,
): FakeDiscordInteraction {
  const { store } = context;
  const { commands, interactions } = state;
  const command = [...commands.values()].find((candidate) => candidate.name === options.command);
  if (!command) throw new Error(`dispatchInteraction: /${options.command} is not registered`);
  const user = store.user(options.user);
  const channel = options.dm
    ? store.dmChannel(user)
    : store.channels.get(options.channelId ?? store.guilds[0]?.channels[0]?.id ?? '');
  if (!channel) throw new Error(`dispatchInteraction: unknown channel ${options.channelId ?? '(none)'}`);
  const type = options.focused ? 4 : 2;
  const live: Live = {
    id: store.nextId(),
    token: randomBytes(24).toString('base64url'),
    type,
    command: command.name,
    channelId: channel.id,
    userId: user.id,
    responses: [],
    followUpIds: [],
    createdAt: Date.now(),
  };
  interactions.set(live.id, live);
  const values = options.options ?? {};
  const optionPayload = Object.entries(values).map(([name, value]) => {
    const definition = command.options.find((option) => option.name === name);
    if (!definition) throw new Error(`dispatchInteraction: /${command.name} has no option ${name}`);
    return { name, type: definition.type, value, ...(options.focused === name ? { focused: true } : {}) };
  });
  const payload = interactionPayload(store, live, channel, user, {
    data: {
      id: command.id,
      name: command.name,
      type: 1,
      options: optionPayload,
      ...(channel.guildId ? { guild_id: channel.guildId } : {}),
    },
    ...(options.permissions ? { permissions: options.permissions } : {}),
  });
  context.gateway.dispatch('INTERACTION_CREATE', () => payload);
  context.onChange();
  return live;
}

/** Sends INTERACTION_CREATE for a click on a message's button (type 3) and returns the live record. */
function clickButton(
  context: InteractionContext,
  interactions: Map<string, Live>,
  options: FakeDiscordClickOptions,
): FakeDiscordInteraction {
  const { store } = context;
  const message = store.messages.get(options.messageId);
  if (!message || message.deleted) throw new Error(`clickButton: no message ${options.messageId}`);
  const button = clickableButton(message, options.customId);
  if (!button)
    throw new Error(`clickButton: message ${message.id} has no enabled button "${options.customId}"`);
  const channel = store.channels.get(message.channelId);
  if (!channel) throw new Error(`clickButton: unknown channel ${message.channelId}`);
  const clicker = store.user(options.user);
  const live: Live = {
    id: store.nextId(),
    token: randomBytes(24).toString('base64url'),
    type: 3,
    command: '',
    customId: options.customId,
    messageId: message.id,
    channelId: channel.id,
    userId: clicker.id,
    responses: [],
    followUpIds: [],
    createdAt: Date.now(),
  };
  interactions.set(live.id, live);
  const payload = interactionPayload(store, live, channel, clicker, {
    data: { custom_id: options.customId, component_type: button.type },
    message: store.messagePayload(message),
  });
  context.gateway.dispatch('INTERACTION_CREATE', () => payload);
  context.onChange();
  return live;
}

/** The live interaction a webhook's application id and token name, or Discord's refusal. */
function byToken(
  store: FakeDiscordStore,
  interactions: Map<string, Live>,
  appId: string | undefined,
  token: string | undefined,
): Live | RestResult {
  if (appId !== store.applicationId) return error(404, 10015, 'Unknown Webhook');
  const live = [...interactions.values()].find((candidate) => candidate.token === token);
  if (!live || Date.now() - live.createdAt > TOKEN_LIFETIME_MS)
    return error(401, 50027, 'Invalid Webhook Token');
  return live;
}

/** A message the interaction owns (`@original` or a follow-up), or Discord's refusal. */
function messageOf(
  store: FakeDiscordStore,
  live: Live,
  id: string | undefined,
): FakeDiscordMessage | RestResult {
  const messageId = id === '@original' ? live.originalId : id;
  const message = messageId ? store.messages.get(messageId) : undefined;
  if (
    !message ||
    message.deleted ||
    !(messageId === live.originalId || live.followUpIds.includes(messageId ?? ''))
  )
    return error(404, 10008, 'Unknown Message');
  return message;
}
