import { describe, expect, it } from 'vitest';
import {
  channelConfig,
  DEFAULT_CHANNEL_SETTINGS,
  isAllowed,
  parseChannelSettings,
} from './channel-settings.js';

const GUILD = '111111111111111111';
const OTHER_GUILD = '222222222222222222';
const CHANNEL = '333333333333333333';
const ALICE = '444444444444444444';
const BOB = '555555555555555555';
const THREAD = '666666666666666666';

function parse(value: unknown) {
  return parseChannelSettings(JSON.stringify(value));
}

describe('parseChannelSettings', () => {
  it('reads the default, channel entries and allowlists', () => {
    const { settings, errors } = parse({
      default: { mode: 'mention_only', prompt: 'Be brief.' },
      channels: { [CHANNEL]: { name: 'ops', mode: 'all_messages', model: 'qwen2.5:7b', allow_bots: true } },
      allowed_guilds: [GUILD],
      allowed_users: [ALICE],
    });
    expect(errors).toEqual([]);
    expect(settings?.defaults).toEqual({ mode: 'mention_only', prompt: 'Be brief.' });
    expect(settings?.channels.get(CHANNEL)).toEqual({
      mode: 'all_messages',
      model: 'qwen2.5:7b',
      allowBots: true,
    });
    expect(settings?.allowedGuilds).toEqual(new Set([GUILD]));
    expect(settings?.allowedUsers).toEqual(new Set([ALICE]));
  });

  it('defaults the mode to mention_only', () => {
    expect(parse({})).toEqual({
      settings: { defaults: { mode: 'mention_only' }, channels: new Map() },
      errors: [],
    });
  });

  it('ignores keys that start with an underscore, as comments', () => {
    const { errors } = parse({ _README: ['notes'], channels: { _example: {}, [CHANNEL]: { _why: 'x' } } });
    expect(errors).toEqual([]);
  });

  it('says which file is not JSON', () => {
    expect(parseChannelSettings('{ nope').errors[0]).toMatch(/^discord_channels\.json is not valid JSON: /);
  });

  it('refuses a misspelt allowlist rather than ignoring it', () => {
    expect(parse({ alowed_users: [ALICE] }).errors).toEqual([
      'discord_channels.json has an unknown key "alowed_users" (known: default, channels, allowed_guilds, allowed_users).',
    ]);
  });

  it('refuses an unknown mode with one sentence naming the channel', () => {
    const { settings, errors } = parse({ channels: { [CHANNEL]: { mode: 'always' } } });
    expect(settings).toBeUndefined();
    expect(errors).toEqual([
      `channels["${CHANNEL}"].mode must be "mention_only" or "all_messages", not "always".`,
    ]);
  });

  it('reads speak_replies and quote_transcripts, and refuses other values in one sentence each', () => {
    const good = parse({
      default: { speak_replies: 'voice' },
      channels: { [CHANNEL]: { quote_transcripts: true } },
    });
    expect(good.settings && channelConfig(good.settings, CHANNEL)).toEqual({
      mode: 'mention_only',
      speakReplies: 'voice',
      quoteTranscripts: true,
    });
    const bad = parse({ channels: { [CHANNEL]: { speak_replies: 'yes', quote_transcripts: 'yes' } } });
    expect(bad.errors).toEqual([
      `channels["${CHANNEL}"].speak_replies must be "off", "voice" or "always", not "yes".`,
      `channels["${CHANNEL}"].quote_transcripts must be true or false.`,
    ]);
  });

  it('refuses ids written as numbers, which JSON cannot hold exactly', () => {
    expect(parseChannelSettings('{"allowed_users": [444444444444444444]}').errors[0]).toMatch(
      /ids written as strings/,
    );
  });

  it('refuses a channel key that is not an id', () => {
    expect(parse({ channels: { general: {} } }).errors[0]).toMatch(/"general" that is not a channel id/);
  });

  it('lists every problem, not just the first', () => {
    expect(parse({ default: { mode: 1, allow_bots: 'yes' }, channels: [] }).errors).toHaveLength(3);
  });
});

describe('channelConfig', () => {
  it('merges a channel entry over the default', () => {
    const { settings } = parse({
      default: { prompt: 'Be brief.' },
      channels: { [CHANNEL]: { mode: 'all_messages' } },
    });
    expect(channelConfig(settings ?? DEFAULT_CHANNEL_SETTINGS, CHANNEL)).toEqual({
      mode: 'all_messages',
      prompt: 'Be brief.',
    });
  });

  it('gives the default to a channel without an entry', () => {
    expect(channelConfig(DEFAULT_CHANNEL_SETTINGS, CHANNEL)).toEqual({ mode: 'mention_only' });
  });

  it("gives a thread without an entry its parent channel's entry", () => {
    const { settings } = parse({ channels: { [CHANNEL]: { mode: 'all_messages', model: 'big' } } });
    expect(channelConfig(settings ?? DEFAULT_CHANNEL_SETTINGS, THREAD, CHANNEL)).toEqual({
      mode: 'all_messages',
      model: 'big',
    });
  });

  it("gives a thread its own entry over the default, without the parent's entry", () => {
    const { settings } = parse({
      default: { prompt: 'Be brief.' },
      channels: { [CHANNEL]: { mode: 'all_messages', model: 'big' }, [THREAD]: { mode: 'mention_only' } },
    });
    expect(channelConfig(settings ?? DEFAULT_CHANNEL_SETTINGS, THREAD, CHANNEL)).toEqual({
      mode: 'mention_only',
      prompt: 'Be brief.',
    });
  });

  it('gives the default to a thread when neither it nor its parent has an entry', () => {
    expect(channelConfig(DEFAULT_CHANNEL_SETTINGS, THREAD, CHANNEL)).toEqual({ mode: 'mention_only' });
  });
});

describe('isAllowed', () => {
  it('lets everyone in when there are no allowlists', () => {
    expect(isAllowed(DEFAULT_CHANNEL_SETTINGS, { guildId: GUILD, userId: ALICE })).toBe(true);
    expect(isAllowed(DEFAULT_CHANNEL_SETTINGS, { userId: ALICE })).toBe(true);
  });

  it('refuses a guild that is not in allowed_guilds', () => {
    const settings = parse({ allowed_guilds: [GUILD] }).settings ?? DEFAULT_CHANNEL_SETTINGS;
    expect(isAllowed(settings, { guildId: GUILD, userId: ALICE })).toBe(true);
    expect(isAllowed(settings, { guildId: OTHER_GUILD, userId: ALICE })).toBe(false);
  });

  it('refuses a user who is not in allowed_users, in guilds and DMs', () => {
    const settings = parse({ allowed_users: [ALICE] }).settings ?? DEFAULT_CHANNEL_SETTINGS;
    expect(isAllowed(settings, { guildId: GUILD, userId: BOB })).toBe(false);
    expect(isAllowed(settings, { userId: BOB })).toBe(false);
    expect(isAllowed(settings, { userId: ALICE })).toBe(true);
  });

  it('refuses DMs when only guilds are allowlisted', () => {
    const settings = parse({ allowed_guilds: [GUILD] }).settings ?? DEFAULT_CHANNEL_SETTINGS;
    expect(isAllowed(settings, { userId: ALICE })).toBe(false);
  });

  it('refuses everyone while the settings deny all', () => {
    expect(isAllowed({ ...DEFAULT_CHANNEL_SETTINGS, denyAll: true }, { userId: ALICE })).toBe(false);
  });
});
