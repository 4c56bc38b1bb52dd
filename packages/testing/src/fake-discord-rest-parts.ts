import { IS_VOICE_MESSAGE } from './fake-discord-attachments.js';
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

export const MAX_CONTENT_LENGTH = 2000;
/** Flags a bot may set on a message: SUPPRESS_EMBEDS, SUPPRESS_NOTIFICATIONS, IS_VOICE_MESSAGE. */
export const SETTABLE_FLAGS = (1 << 2) | (1 << 12) | IS_VOICE_MESSAGE;

export function error(status: number, code: number, message: string): RestResult {
  return { status, body: { message, code } };
}

export function formError(field: string, code: string, message: string): RestResult {
  return {
    status: 400,
    body: {
      message: 'Invalid Form Body',
      code: 50035,
      errors: { [field]: { _errors: [{ code, message }] } },
    },
  };
}

export const unknownChannel = () => error(404, 10003, 'Unknown Channel');
export const unknownMessage = () => error(404, 10008, 'Unknown Message');

/** Why the bot cannot post (or type) in `channel`: a forum holds only posts; a private thread only its members. */
export function postProblem(store: FakeDiscordStore, channel: FakeDiscordChannel): RestResult | undefined {
  if (channel.type === 15) return error(400, 50008, 'Cannot send messages in a non-text channel');
  if (!botSeesThread(store, channel)) return error(403, 50001, 'Missing Access');
  return undefined;
}

export function checkContent(content: unknown, required: boolean): RestResult | undefined {
  if (content !== undefined && content !== null && typeof content !== 'string')
    return formError('content', 'STRING_TYPE_CONVERT', 'Could not interpret the value as string.');
  const text = typeof content === 'string' ? content : '';
  // Discord counts code points, not UTF-16 units.
  if ([...text].length > MAX_CONTENT_LENGTH)
    return formError('content', 'BASE_TYPE_MAX_LENGTH', `Must be ${MAX_CONTENT_LENGTH} or fewer in length.`);
  if (required && text.trim() === '') return error(400, 50006, 'Cannot send an empty message');
  return undefined;
}
