/** A gateway session's shard: `[shard id, shard count]`, as IDENTIFY's `shard` field gives it. */
export type ShardTuple = readonly [number, number];

/** The shard a session without a `shard` field holds: all of it. */
export const UNSHARDED: ShardTuple = [0, 1];

/** The shard a guild belongs to, as Discord computes it: `(guild_id >> 22) % shard_count`. */
export function shardOfGuild(guildId: string, shardCount: number): number {
  return Number((BigInt(guildId) >> 22n) % BigInt(shardCount));
}

/**
 * Reads IDENTIFY's `shard` field: absent means unsharded; an id outside `[0, count)` or a
 * malformed pair is `undefined` (Discord closes such a connection with 4010, "Invalid shard").
 */
export function parseShard(value: unknown): ShardTuple | undefined {
  if (value === undefined || value === null) return UNSHARDED;
  if (!Array.isArray(value) || value.length !== 2) return undefined;
  const [id, count] = value as unknown[];
  if (!Number.isInteger(id) || !Number.isInteger(count)) return undefined;
  if ((count as number) < 1 || (id as number) < 0 || (id as number) >= (count as number)) return undefined;
  return [id as number, count as number];
}

/**
 * Whether a session on `shard` receives an event of `guildId`: guild events go to the shard
 * that owns the guild only; events without a guild (DMs) go to shard 0 only, as on Discord.
 */
export function shardReceives(shard: ShardTuple, guildId: unknown): boolean {
  const [id, count] = shard;
  if (typeof guildId !== 'string' || guildId === '') return id === 0;
  return shardOfGuild(guildId, count) === id;
}

/** The guild an event payload belongs to (its `guild_id`, or its own `id` for GUILD_CREATE). */
export function guildOfEvent(t: string, d: unknown): unknown {
  const payload = d as { guild_id?: unknown; id?: unknown } | null;
  if (payload === null || typeof payload !== 'object') return undefined;
  return t.startsWith('GUILD_') && payload.guild_id === undefined ? payload.id : payload.guild_id;
}

/** The guilds a session on `shard` is told about in READY and GUILD_CREATE. */
export function guildsOfShard<G extends { id: string }>(
  store: { guilds: readonly G[] },
  shard: ShardTuple,
): G[] {
  return store.guilds.filter((guild) => shardOfGuild(guild.id, shard[1]) === shard[0]);
}
