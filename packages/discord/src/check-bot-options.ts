import { discordError } from './discord-errors.js';
import { MIN_SPLIT_LIMIT } from './split-message.js';
import type { DiscordBotOptions } from './types.js';

/** Refuses options `createDiscordBot` cannot work with, in one sentence each. */
export function checkOptions(options: DiscordBotOptions): void {
  if (typeof options.token !== 'string' || options.token.trim() === '')
    throw discordError('INVALID_OPTION', 'createDiscordBot needs a bot token (DISCORD_BOT_TOKEN).');
  if (typeof options.agent?.answer !== 'function')
    throw discordError('INVALID_OPTION', 'createDiscordBot needs an agent with an answer() method.');
  for (const origin of options.imageOrigins ?? []) {
    let protocol = '';
    try {
      protocol = new URL(origin).protocol;
    } catch {}
    if (protocol !== 'https:' && protocol !== 'http:')
      throw discordError('INVALID_OPTION', `imageOrigins: "${origin}" is not an http(s) origin.`);
  }
  checkShards(options.shards, options.shardCount);
  const max = options.maxReplyChars;
  if (max !== undefined && (!Number.isInteger(max) || max < MIN_SPLIT_LIMIT || max > 2000))
    throw discordError('INVALID_OPTION', `maxReplyChars must be an integer from ${MIN_SPLIT_LIMIT} to 2000.`);
}

function checkShards(shards: readonly number[] | undefined, count: number | undefined): void {
  if (shards === undefined && count === undefined) return;
  if (count === undefined || !Number.isInteger(count) || count < 1)
    throw discordError('INVALID_OPTION', 'shardCount must be a whole number of shards, at least 1.');
  const bad = (shards ?? []).find((id) => !Number.isInteger(id) || id < 0 || id >= count);
  if (bad !== undefined)
    throw discordError(
      'INVALID_OPTION',
      `Shard ${bad} does not exist: shards are numbered 0 to ${count - 1}.`,
    );
  if (shards !== undefined && shards.length === 0)
    throw discordError('INVALID_OPTION', 'shards lists no shard; give at least one, or leave it out.');
}
