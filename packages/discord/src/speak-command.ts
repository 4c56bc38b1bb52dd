import {
  ApplicationCommandOptionType,
  type ChatInputCommandInteraction,
  type RESTPostAPIChatInputApplicationCommandsJSONBody,
} from 'discord.js';
import type { BotStateFile } from './bot-state-file.js';
import type { SpeakReplies } from './voice-options.js';

/** The `/speak` value that clears the user's choice: the channel's setting applies again. */
const DEFAULT_SPEAK = 'default';

/** `/speak`, as registered when the bot can speak (a speech server is set). */
export const SPEAK_COMMAND: RESTPostAPIChatInputApplicationCommandsJSONBody = {
  name: 'speak',
  description: 'Show or choose when the answers to your messages are also spoken (for you alone).',
  options: [
    {
      type: ApplicationCommandOptionType.String,
      name: 'when',
      description: 'always, voice (answers to your voice notes), off, or default (the channel decides)',
      required: false,
      choices: [
        { name: 'always', value: 'always' },
        { name: 'to my voice notes', value: 'voice' },
        { name: 'off', value: 'off' },
        { name: 'default (as the channel is set)', value: DEFAULT_SPEAK },
      ],
    },
  ],
};

/** How a mode reads in a sentence. */
const SAID: Record<SpeakReplies, string> = {
  always: 'always spoken',
  voice: 'spoken when you sent a voice note',
  off: 'not spoken',
};

/**
 * When an answer to `askerId` is spoken: a channel whose own setting (`speak_replies` in
 * `discord_channels.json`) is `off` never speaks, whatever anyone chose; otherwise the asker's
 * `/speak` choice, else the channel's setting, else the bot's.
 */
export function speakMode(
  channelSetting: SpeakReplies | undefined,
  userChoice: SpeakReplies | undefined,
  botSetting: SpeakReplies,
): SpeakReplies {
  if (channelSetting === 'off') return 'off';
  return userChoice ?? channelSetting ?? botSetting;
}

/**
 * `/speak` without a value says when the user's answers are spoken and why; with one, it keeps the
 * user's own choice (in the bot's state file, for every channel and DM), or clears it with
 * `default`. Anyone may choose for themselves; a channel set to `off` stays silent.
 */
export function speakCommand(
  interaction: ChatInputCommandInteraction,
  context: { state: BotStateFile; botSetting: SpeakReplies },
  channelSetting: SpeakReplies | undefined,
): string {
  const userId = interaction.user.id;
  const value = interaction.options.getString('when');
  if (value === DEFAULT_SPEAK) context.state.setSpeakReplies(userId, undefined);
  else if (value === 'always' || value === 'voice' || value === 'off')
    context.state.setSpeakReplies(userId, value);
  const chosen = context.state.speakReplies(userId);
  const mode = speakMode(channelSetting, chosen, context.botSetting);
  const here = `Here, answers to you are ${SAID[mode]}`;
  if (channelSetting === 'off' && chosen !== undefined && chosen !== 'off')
    return `${here}: this channel is set not to speak. Elsewhere your choice applies: ${SAID[chosen]}.`;
  if (chosen !== undefined) return `${here} (your choice with /speak).`;
  return `${here} (${channelSetting !== undefined ? "this channel's setting" : "the bot's setting"}); choose for yourself with /speak.`;
}
