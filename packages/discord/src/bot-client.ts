import { Client, GatewayIntentBits, Partials } from 'discord.js';
import type { DiscordBotOptions } from './types.js';

/** Close codes after which discord.js gives up, and what the owner should do about them. */
export const FATAL_CLOSE_CODES: Record<number, string> = {
  4004: 'Discord refused the bot token. Check DISCORD_BOT_TOKEN.',
  4010: 'Discord refused the shard settings.',
  4011: 'Discord requires sharding for this bot.',
  4012: 'Discord refused the gateway version.',
  4013: 'Discord refused the gateway intents as invalid.',
  4014: 'Discord refused the Message Content intent. Turn on "Message Content Intent" under Bot > Privileged Gateway Intents in the developer portal.',
};

/**
 * The discord.js client the bot runs on: the intents and partials it needs, REST at `apiUrl`,
 * the shards it holds, and no pings. Its REST token is set, so posting works before the gateway.
 */
export function createBotClient(options: DiscordBotOptions, apiUrl: string): Client {
  const client = new Client({
    intents: [
      GatewayIntentBits.Guilds,
      GatewayIntentBits.GuildMessages,
      GatewayIntentBits.DirectMessages,
      GatewayIntentBits.MessageContent,
      // ❌ on the status message stops an answer.
      GatewayIntentBits.GuildMessageReactions,
      GatewayIntentBits.DirectMessageReactions,
    ],
    // DMs arrive for channels the client has not cached yet; reactions for uncached messages.
    partials: [Partials.Channel, Partials.Message, Partials.Reaction, Partials.User],
    rest: { ...options.rest, api: apiUrl },
    ...(options.shardCount !== undefined
      ? {
          shardCount: options.shardCount,
          shards: [...(options.shards ?? Array.from({ length: options.shardCount }, (_, id) => id))],
        }
      : {}),
    allowedMentions: { parse: [] },
  });
  // REST alone is enough for sendToChannel, before (or without) the gateway.
  client.rest.setToken(options.token);
  return client;
}
