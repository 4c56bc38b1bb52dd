// The fake's message writes: create and edit, with Discord's own checks.
import { IS_VOICE_MESSAGE, uploadedAttachments } from './fake-discord-attachments.js';
import { isRefusal, readComponents } from './fake-discord-components.js';
import {
  checkContent,
  error,
  formError,
  postProblem,
  type RestContext,
  type RestResult,
  SETTABLE_FLAGS,
  unknownChannel,
  unknownMessage,
} from './fake-discord-rest-parts.js';
import type { FakeDiscordMessage } from './fake-discord-types.js';

/** `POST /channels/:id/messages`: checks the message as Discord does, stores and records it. */
export function createMessage(context: RestContext, channelId: string, rawBody: unknown): RestResult {
  const { store } = context;
  const bot = store.botUser;
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

/** `PATCH /channels/:id/messages/:id`: the bot's own message only, never a voice message. */
export function editMessage(
  context: RestContext,
  channelId: string,
  messageId: string,
  rawBody: unknown,
): RestResult {
  const { store } = context;
  const bot = store.botUser;
  if (!store.channels.has(channelId)) return unknownChannel();
  const message = store.messages.get(messageId);
  if (!message || message.deleted || message.channelId !== channelId) return unknownMessage();
  if (message.author.id !== bot.id)
    return error(403, 50005, 'Cannot edit a message authored by another user');
  if ((message.flags & IS_VOICE_MESSAGE) !== 0) return error(400, 50162, 'Voice messages cannot be edited.');
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
