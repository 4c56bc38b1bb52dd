import type { BotParts } from './bot-parts.js';
import { discordError } from './discord-errors.js';

/**
 * Posts `text` to a channel for other work (the scheduler's deliveries): checks the channel id
 * and nonce, then sends it split like replies in the channel's send queue. See
 * {@link DiscordBot.sendToChannel}.
 */
export async function sendToChannel(
  parts: BotParts,
  channelId: string,
  text: string,
  sendOptions: { nonce?: string; linkPreviews?: boolean; postedSince?: Date } = {},
): Promise<string[]> {
  const { logger } = parts;
  if (!/^\d{1,20}$/.test(channelId))
    throw discordError('DISCORD_BAD_CHANNEL', `"${channelId}" is not a Discord channel id (digits only).`);
  const { nonce } = sendOptions;
  if (nonce !== undefined && !/^[\w.-]{1,20}$/.test(nonce))
    throw discordError(
      'INVALID_OPTION',
      `The nonce "${nonce}" is not 1 to 20 letters, digits, "_", "-" or ".".`,
    );
  if (text.trim() === '') {
    logger.warn({ channelId }, 'sendToChannel: nothing to send');
    return [];
  }
  if (parts.state === 'stopped')
    throw discordError('DISCORD_BOT_STOPPED', 'The Discord bot has stopped; nothing was sent.');
  // Previews off unless the caller knows the text read no outside content: a scheduled run's
  // result does not say what the run read, and Discord would fetch every link it shows.
  const suppressEmbeds = sendOptions.linkPreviews !== true;
  const ids = await parts.sendQueue.run(channelId, () =>
    parts.sender.sendText(channelId, text, { nonce, suppressEmbeds, postedSince: sendOptions.postedSince }),
  );
  logger.info({ channelId, parts: ids.length, chars: text.length }, 'message delivered');
  return ids;
}
