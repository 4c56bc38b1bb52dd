import { describe, expect, it } from 'vitest';
import { type ChannelConfig, DEFAULT_CHANNEL_SETTINGS } from './channel-settings.js';
import { type MessageFacts, shouldAnswer } from './should-answer.js';

const guildMessage: MessageFacts = {
  isDm: false,
  guildId: '1',
  authorId: '2',
  authorIsBot: false,
  isSelf: false,
  isSystem: false,
  mentionsBot: false,
  repliesToBot: false,
};
const mentionOnly: ChannelConfig = { mode: 'mention_only' };
const allMessages: ChannelConfig = { mode: 'all_messages' };
const decide = (facts: Partial<MessageFacts>, config = mentionOnly, allowBots = false) =>
  shouldAnswer({ ...guildMessage, ...facts }, DEFAULT_CHANNEL_SETTINGS, config, allowBots).answer;

describe('shouldAnswer', () => {
  it('ignores a plain message in a mention_only channel', () => {
    expect(decide({})).toBe(false);
  });

  it('answers a mention in a mention_only channel', () => {
    expect(decide({ mentionsBot: true })).toBe(true);
  });

  it('answers a reply to the bot in a mention_only channel', () => {
    expect(decide({ repliesToBot: true })).toBe(true);
  });

  it('answers every message in an all_messages channel', () => {
    expect(decide({}, allMessages)).toBe(true);
  });

  it('answers a DM without a mention', () => {
    expect(decide({ isDm: true, guildId: undefined as unknown as string })).toBe(true);
  });

  it('never answers its own messages, whatever the settings', () => {
    expect(
      decide(
        { isSelf: true, authorIsBot: true, mentionsBot: true },
        { mode: 'all_messages', allowBots: true },
        true,
      ),
    ).toBe(false);
  });

  it('ignores another bot unless allowed', () => {
    expect(decide({ authorIsBot: true, mentionsBot: true })).toBe(false);
    expect(decide({ authorIsBot: true, mentionsBot: true }, mentionOnly, true)).toBe(true);
    expect(decide({ authorIsBot: true, mentionsBot: true }, { mode: 'mention_only', allowBots: true })).toBe(
      true,
    );
  });

  it('lets a channel refuse bots that are allowed elsewhere', () => {
    expect(
      decide({ authorIsBot: true, mentionsBot: true }, { mode: 'mention_only', allowBots: false }, true),
    ).toBe(false);
  });

  it('ignores system messages', () => {
    expect(decide({ isSystem: true, mentionsBot: true })).toBe(false);
  });

  it('ignores a user outside the allowlist even when mentioned', () => {
    const settings = { ...DEFAULT_CHANNEL_SETTINGS, allowedUsers: new Set(['9']) };
    expect(shouldAnswer({ ...guildMessage, mentionsBot: true }, settings, mentionOnly, false)).toEqual({
      answer: false,
      reason: 'not in the allowlists',
    });
  });
});
