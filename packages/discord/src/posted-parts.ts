import { type REST, Routes, SnowflakeUtil } from 'discord.js';

/**
 * The line a part of a delivery carries so it can be found again after Discord's nonce window
 * has passed: subtext (`-#`, small and grey) naming the delivery and the part.
 */
export function deliveryMarker(nonce: string, index: number): string {
  return `\n-# delivery ${nonce}.${index}`;
}

/** The longest marker a part may carry: the text is split to leave room for it. */
export const MAX_MARKER_CHARS = deliveryMarker('x'.repeat(20), 99).length;

const MARKER = /\n-# delivery ([\w.-]{1,20})\.(\d{1,2})$/;
const PAGE = 100;
const MAX_PAGES = 10;

/**
 * The parts of delivery `nonce` the bot already posted in a channel since `since`, by part
 * number: read from the channel's messages (at most 1,000), matched by their marker and author.
 * Used when a delivery is older than Discord's nonce window, which would no longer stop a repeat.
 */
export async function findPostedParts(
  rest: REST,
  channelId: string,
  nonce: string,
  since: Date,
): Promise<Map<number, string>> {
  const me = (await rest.get(Routes.user('@me'))) as { id: string };
  const found = new Map<number, string>();
  // A minute of margin for clocks: `after` takes a message id, and ids encode creation time.
  let after = SnowflakeUtil.generate({
    timestamp: Math.max(since.getTime() - 60_000, 1_420_070_400_001),
  }).toString();
  for (let page = 0; page < MAX_PAGES; page += 1) {
    const query = new URLSearchParams({ after, limit: String(PAGE) });
    const messages = (await rest.get(Routes.channelMessages(channelId), { query })) as Array<{
      id: string;
      content?: string;
      author?: { id: string };
    }>;
    for (const message of messages) {
      const marker = MARKER.exec(message.content ?? '');
      if (marker && marker[1] === nonce && message.author?.id === me.id)
        found.set(Number(marker[2]), message.id);
    }
    if (messages.length < PAGE) break;
    // Discord answers `after` newest first: the next page starts after the newest seen.
    after = messages.reduce(
      (newest, message) => (BigInt(message.id) > BigInt(newest) ? message.id : newest),
      after,
    );
  }
  return found;
}
