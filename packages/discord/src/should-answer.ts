import { type ChannelConfig, type ChannelSettings, isAllowed } from './channel-settings.js';

/** What the bot needs to know about a message to decide whether to answer it. */
export interface MessageFacts {
  /** A direct message (no guild). */
  isDm: boolean;
  guildId?: string;
  authorId: string;
  /** The author is a bot or a webhook. */
  authorIsBot: boolean;
  /** The author is this bot. */
  isSelf: boolean;
  /** A system message (pins, joins, boosts). */
  isSystem: boolean;
  /** The bot (or its managed role) is mentioned. */
  mentionsBot: boolean;
  /** The message replies to one of the bot's messages. */
  repliesToBot: boolean;
}

/** The decision, with the reason when the answer is no (for the debug log). */
export type AnswerDecision = { answer: true } | { answer: false; reason: string };

/**
 * Decides whether to answer: never itself or system messages; other bots only where allowed;
 * only allowlisted guilds and users; DMs always; in guild channels every message in
 * `all_messages` mode, and in `mention_only` mode mentions and replies to the bot.
 */
export function shouldAnswer(
  facts: MessageFacts,
  settings: ChannelSettings,
  config: ChannelConfig,
  allowBots: boolean,
): AnswerDecision {
  if (facts.isSelf) return { answer: false, reason: 'own message' };
  if (facts.isSystem) return { answer: false, reason: 'system message' };
  if (facts.authorIsBot && !(config.allowBots ?? allowBots))
    return { answer: false, reason: 'author is a bot' };
  const where = {
    userId: facts.authorId,
    ...(facts.guildId !== undefined ? { guildId: facts.guildId } : {}),
  };
  if (!isAllowed(settings, where)) return { answer: false, reason: 'not in the allowlists' };
  if (facts.isDm) return { answer: true };
  if (config.mode === 'all_messages') return { answer: true };
  if (facts.mentionsBot || facts.repliesToBot) return { answer: true };
  return { answer: false, reason: 'not addressed to the bot (mention_only)' };
}
