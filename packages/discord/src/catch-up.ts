import type { Logger } from '@macstats/core';
import type { Client, Message } from 'discord.js';
import type { BotStateFile } from './bot-state-file.js';

/** How far back and how much {@link catchUp} looks. */
export interface CatchUpLimits {
  /** Only channels active this recently, and only messages this young, in milliseconds. */
  maxAgeMs: number;
  /** At most this many messages per channel (the oldest after the last one handled). */
  maxMessages: number;
}

/**
 * After the gateway identified afresh (a resume refused, or a restart), fetches over REST the
 * messages posted after the last one handled in each recently active channel and hands them to
 * `deliver` oldest first; `deliver` drops ids already seen, so a message replayed by a resume and
 * fetched here is still answered once. Resolves with how many messages were handed over.
 */
export async function catchUp(
  client: Client,
  state: BotStateFile,
  limits: CatchUpLimits,
  now: number,
  deliver: (message: Message) => void,
  logger: Logger,
): Promise<number> {
  if (limits.maxMessages <= 0 || limits.maxAgeMs <= 0) return 0;
  const since = now - limits.maxAgeMs;
  let delivered = 0;
  for (const channelId of state.activeSince(since)) {
    const after = state.lastSeen(channelId);
    if (after === undefined) continue;
    try {
      const channel = await client.channels.fetch(channelId);
      if (!channel?.isTextBased() || !('messages' in channel)) continue;
      const page = await channel.messages.fetch({
        after,
        limit: Math.min(100, limits.maxMessages),
        cache: true,
      });
      const missed = [...page.values()]
        .filter((message) => message.createdTimestamp >= since)
        .sort((a, b) => (BigInt(a.id) < BigInt(b.id) ? -1 : 1));
      if (missed.length > 0)
        logger.info({ channelId, after, count: missed.length }, 'catching up on missed messages');
      for (const message of missed) {
        deliver(message);
        delivered++;
      }
    } catch (error) {
      logger.warn({ channelId, err: error }, 'could not catch up on a channel');
    }
  }
  return delivered;
}
