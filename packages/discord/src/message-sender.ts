import { randomBytes } from 'node:crypto';
import {
  type APIActionRowComponent,
  type APIButtonComponentWithCustomId,
  MessageFlags,
  type REST,
  Routes,
} from 'discord.js';
import { discordError } from './discord-errors.js';
import type { PostedLabel, PostedLabels } from './posted-labels.js';
import { deliveryMarker, findPostedParts, MAX_MARKER_CHARS } from './posted-parts.js';
import { splitMessage } from './split-message.js';

/** No link previews and no push notification: for the status message. */
const QUIET_FLAGS = MessageFlags.SuppressEmbeds | MessageFlags.SuppressNotifications;

/** How {@link MessageSender.sendText} posts. */
export interface SendTextOptions {
  /** The first part replies to this message. */
  replyTo?: string | undefined;
  /** At most 20 characters: part N goes out with the nonce `<nonce>.<N>`. */
  nonce?: string | undefined;
  /**
   * Post every part with link previews suppressed (SUPPRESS_EMBEDS): Discord fetches every link a
   * message shows, so a link in an answer that read outside content would be fetched for its
   * preview, its query string and all. Default false.
   */
  suppressEmbeds?: boolean | undefined;
  /**
   * With `nonce`: the delivery may already be in the channel, posted at or after this time by an
   * earlier attempt. When that is longer ago than `nonceWindowMs`, Discord's nonce no longer
   * stops a repeat, so the channel is searched for the parts first (each part carries a marker
   * line) and only the missing ones are posted.
   */
  postedSince?: Date | undefined;
  /**
   * What the answer's context held: recorded with every part posted, so a reply to it restores
   * those labels. Absent: the parts are on no record and read back as outside content.
   */
  labels?: PostedLabel | undefined;
}

/** The action rows of buttons a prompt carries. */
export type PromptComponents = APIActionRowComponent<APIButtonComponentWithCustomId>[];

/** A fresh nonce per message: with `enforce_nonce`, a retried send cannot post it twice. */
function newNonce(): string {
  return randomBytes(12).toString('base64url');
}

/**
 * Posts, edits and deletes the bot's messages over REST. Long text is split with
 * {@link splitMessage}; the parts go out one after another, each with its own nonce and
 * `enforce_nonce`, so discord.js's retries after a 429 or a 5xx never double a part, and a part
 * that fails for good stops the rest (a later part never lands before an earlier one). Nothing the
 * model writes can ping anyone: `allowed_mentions` parses no mentions.
 */
export class MessageSender {
  constructor(
    private readonly rest: REST,
    private readonly maxChars: number,
    private readonly nonceWindowMs = 60_000,
    private readonly posted?: PostedLabels,
  ) {}

  /**
   * Sends `text` in parts; the first part replies to `replyTo` when given. With `nonce` (at most
   * 20 characters), part N goes out with the nonce `<nonce>.<N>`, so sending the same text with
   * the same nonce again (another process, after a crash) returns the parts already posted. With
   * `suppressEmbeds`, every part goes out without link previews. Resolves with the ids posted.
   */
  async sendText(channelId: string, text: string, options: SendTextOptions = {}): Promise<string[]> {
    const { replyTo, nonce, postedSince } = options;
    // A delivery with a nonce carries a marker per part, so it can be found after the window.
    const parts = splitMessage(text, this.maxChars - (nonce === undefined ? 0 : MAX_MARKER_CHARS));
    const posted =
      nonce !== undefined &&
      postedSince !== undefined &&
      Date.now() - postedSince.getTime() > this.nonceWindowMs
        ? await findPostedParts(this.rest, channelId, nonce, postedSince)
        : new Map<number, string>();
    const ids: string[] = [];
    for (const [index, part] of parts.entries()) {
      const already = posted.get(index);
      if (already !== undefined) {
        ids.push(already);
        continue;
      }
      const reference = index === 0 && replyTo !== undefined;
      const content = nonce === undefined ? part : `${part}${deliveryMarker(nonce, index)}`;
      const body = {
        content,
        nonce: nonce === undefined ? newNonce() : `${nonce}.${index}`,
        enforce_nonce: true,
        ...(options.suppressEmbeds ? { flags: MessageFlags.SuppressEmbeds } : {}),
        allowed_mentions: { parse: [], replied_user: reference },
        ...(reference ? { message_reference: { message_id: replyTo, fail_if_not_exists: false } } : {}),
      };
      try {
        const posted = (await this.rest.post(Routes.channelMessages(channelId), { body })) as { id: string };
        ids.push(posted.id);
      } catch (error) {
        throw discordError(
          'DISCORD_SEND_FAILED',
          `Could not post part ${index + 1} of ${parts.length} to channel ${channelId}: ${(error as Error).message}`,
          { cause: error },
        );
      }
    }
    if (options.labels) this.posted?.record(ids, options.labels);
    return ids;
  }

  /**
   * Posts a Discord voice message replying to `replyTo`: no content, the voice-message flag, one
   * Ogg Opus file with its `duration_secs` and `waveform` (what Discord requires of one). Recorded
   * with `labels` like a text part. Resolves with its id.
   */
  async sendVoice(
    channelId: string,
    voice: { bytes: Uint8Array; durationSecs: number; waveform: string },
    options: { replyTo: string; labels?: PostedLabel | undefined },
  ): Promise<string> {
    const filename = 'voice-message.ogg';
    const body = {
      flags: MessageFlags.IsVoiceMessage,
      attachments: [{ id: 0, filename, duration_secs: voice.durationSecs, waveform: voice.waveform }],
      nonce: newNonce(),
      enforce_nonce: true,
      allowed_mentions: { parse: [], replied_user: false },
      message_reference: { message_id: options.replyTo, fail_if_not_exists: false },
    };
    const files = [{ name: filename, data: Buffer.from(voice.bytes), contentType: 'audio/ogg' }];
    const posted = (await this.rest.post(Routes.channelMessages(channelId), { body, files })) as {
      id: string;
    };
    if (options.labels) this.posted?.record([posted.id], options.labels);
    return posted.id;
  }

  /** Posts a quiet status message (no embeds, no notification) replying to `replyTo`; resolves with its id. */
  async createStatus(channelId: string, text: string, replyTo: string): Promise<string> {
    const body = {
      content: text,
      nonce: newNonce(),
      enforce_nonce: true,
      flags: QUIET_FLAGS,
      allowed_mentions: { parse: [], replied_user: false },
      message_reference: { message_id: replyTo, fail_if_not_exists: false },
    };
    const posted = (await this.rest.post(Routes.channelMessages(channelId), { body })) as { id: string };
    return posted.id;
  }

  /**
   * Posts a prompt with buttons that mentions (and so notifies) one user, and no one else;
   * replies to `replyTo` when given. Resolves with its id.
   */
  async createPrompt(
    channelId: string,
    prompt: { content: string; components: PromptComponents; mentionUserId: string; replyTo?: string },
  ): Promise<string> {
    const body = {
      content: prompt.content,
      components: prompt.components,
      nonce: newNonce(),
      enforce_nonce: true,
      // A prompt shows a call's argument, which may be a link the model built: never previewed.
      flags: MessageFlags.SuppressEmbeds,
      allowed_mentions: { parse: [], users: [prompt.mentionUserId], replied_user: false },
      ...(prompt.replyTo
        ? { message_reference: { message_id: prompt.replyTo, fail_if_not_exists: false } }
        : {}),
    };
    const posted = (await this.rest.post(Routes.channelMessages(channelId), { body })) as { id: string };
    return posted.id;
  }

  /** Rewrites a prompt's text and buttons (disabled once decided). */
  async editPrompt(
    channelId: string,
    messageId: string,
    prompt: { content: string; components: PromptComponents },
  ): Promise<void> {
    await this.rest.patch(Routes.channelMessage(channelId, messageId), {
      body: { ...prompt, allowed_mentions: { parse: [] } },
    });
  }

  async edit(channelId: string, messageId: string, text: string): Promise<void> {
    await this.rest.patch(Routes.channelMessage(channelId, messageId), {
      body: { content: text, allowed_mentions: { parse: [] } },
    });
  }

  /** The DM channel with a user (`POST /users/@me/channels`), made on first use; resolves with its id. */
  async openDm(userId: string): Promise<string> {
    const channel = (await this.rest.post(Routes.userChannels(), { body: { recipient_id: userId } })) as {
      id: string;
    };
    return channel.id;
  }

  async remove(channelId: string, messageId: string): Promise<void> {
    await this.rest.delete(Routes.channelMessage(channelId, messageId));
  }

  /** Adds the bot's reaction (a unicode emoji) to a message. */
  async react(channelId: string, messageId: string, emoji: string): Promise<void> {
    await this.rest.put(Routes.channelMessageOwnReaction(channelId, messageId, encodeURIComponent(emoji)));
  }

  async typing(channelId: string): Promise<void> {
    await this.rest.post(Routes.channelTyping(channelId));
  }
}
