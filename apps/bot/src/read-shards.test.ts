import { describe, expect, it } from 'vitest';
import { readShards } from './app-config.js';

describe('DISCORD_SHARDS and DISCORD_SHARD_COUNT', () => {
  it('reads lists and ranges of shards', () => {
    const warnings: string[] = [];
    expect(readShards('0-1,3', '4', warnings)).toEqual({ shards: [0, 1, 3], count: 4 });
    expect(readShards(undefined, '2', warnings)).toEqual({ shards: undefined, count: 2 });
    expect(readShards(undefined, undefined, warnings)).toEqual({ shards: undefined, count: undefined });
    expect(warnings).toEqual([]);
  });

  it('runs unsharded, with one sentence, when a shard does not exist or the count is missing', () => {
    const warnings: string[] = [];
    expect(readShards('0,4', '4', warnings)).toEqual({ shards: undefined, count: undefined });
    expect(readShards('0', undefined, warnings)).toEqual({ shards: undefined, count: undefined });
    expect(readShards('two', '2', warnings)).toEqual({ shards: undefined, count: undefined });
    expect(warnings).toHaveLength(3);
    expect(warnings[0]).toMatch(/DISCORD_SHARDS "0,4" is not a list of shards from 0 to 3/);
    expect(warnings[1]).toMatch(/DISCORD_SHARD_COUNT/);
  });
});
