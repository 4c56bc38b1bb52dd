import type { Message } from 'discord.js';
import { hasAudio } from './audio-input.js';
import { type ChannelConfig, channelConfig } from './channel-settings.js';
import type { ChannelSettingsFile } from './channel-settings-file.js';
import { imageCandidates } from './image-input.js';
import { factsOf, questionOf, threadParentOf } from './message-facts.js';
import { shouldAnswer } from './should-answer.js';

/** One turn of the conversation: one message, or several from one asker merged. */
export interface Turn {
  channelId: string;
  /** The parent channel of a thread. */
  parentId?: string;
  guildId: string | null;
  askerId: string;
  /** The messages answered, oldest first; the reply goes to the last. */
  messages: Message[];
  /** Each message's question, in order. */
  questions: string[];
  /** The channel's settings (a thread's own, else its parent's). */
  config: ChannelConfig;
}

/** What to do with a message. */
export type Decision =
  | { kind: 'ignore'; reason: string }
  | { kind: 'empty' }
  | { kind: 'answer'; turn: Turn };

/**
 * Decides whether to answer a message (following `discord_channels.json`) and makes it a turn:
 * ignored (with the reason, for the debug log), an empty mention, or a question to answer.
 */
export async function decideMessage(
  message: Message,
  botId: string,
  channelsFile: ChannelSettingsFile,
  allowBots: boolean,
): Promise<Decision> {
  const settings = await channelsFile.current();
  const parentId = threadParentOf(message);
  const config = channelConfig(settings, message.channelId, parentId);
  const decision = shouldAnswer(factsOf(message, botId), settings, config, allowBots);
  if (!decision.answer) return { kind: 'ignore', reason: decision.reason };
  const question = questionOf(message, botId);
  // An image alone is a question too ("what is in this image?"), and a voice note is one spoken.
  if (question === '' && imageCandidates([message]).length === 0 && !hasAudio(message))
    return { kind: 'empty' };
  return {
    kind: 'answer',
    turn: {
      channelId: message.channelId,
      ...(parentId !== undefined ? { parentId } : {}),
      guildId: message.guildId,
      askerId: message.author.id,
      messages: [message],
      questions: [question],
      config,
    },
  };
}
