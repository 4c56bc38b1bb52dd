import type { ArchivedMessage } from '@macstats/core';
import {
  ApplicationCommandOptionType,
  type ChatInputCommandInteraction,
  type RESTPostAPIChatInputApplicationCommandsJSONBody,
} from 'discord.js';

/**
 * The conversation's remembered messages, for `/forget` (core's message archive and
 * `agent.forgetMessage` behind it in the apps). Without it there is no `/forget`.
 */
export interface DiscordRememberedMessages {
  /** The conversation's archived messages, oldest first. */
  read(conversationId: string): Promise<ArchivedMessage[]>;
  /** Removes one of them for good (recall forgets it at once); false when it was gone already. */
  forget(conversationId: string, seq: number): Promise<boolean>;
}

/** Most messages one `/forget` removes: a wider net is a `/reset`. */
export const FORGET_LIMIT = 20;

/** `/forget`, as registered when the app keeps remembered messages. */
export const FORGET_COMMAND: RESTPostAPIChatInputApplicationCommandsJSONBody = {
  name: 'forget',
  description: 'Forget the remembered messages of this channel that contain some words.',
  options: [
    {
      type: ApplicationCommandOptionType.String,
      name: 'words',
      description: 'Words the messages to forget contain (as written, any case)',
      required: true,
      min_length: 2,
      max_length: 200,
    },
  ],
};

const quote = (text: string) => `"${text.length > 60 ? `${text.slice(0, 57)}…` : text}"`;

/**
 * Runs `/forget <words>`: removes this channel's remembered messages whose text contains the
 * words, and resolves with the asker's (ephemeral) reply naming what went.
 */
export async function forgetCommand(
  interaction: ChatInputCommandInteraction,
  conversationId: string,
  remembered: DiscordRememberedMessages,
): Promise<string> {
  const words = interaction.options.getString('words', true).trim();
  const wanted = words.toLowerCase().replace(/\s+/g, ' ');
  const matching = (await remembered.read(conversationId)).filter((message) =>
    message.text.toLowerCase().replace(/\s+/g, ' ').includes(wanted),
  );
  if (matching.length === 0) return `No remembered message of this channel contains ${quote(words)}.`;
  if (matching.length > FORGET_LIMIT)
    return `${matching.length} remembered messages contain ${quote(words)}: give more words (at most ${FORGET_LIMIT} go at once), or use /reset to forget the whole conversation.`;
  const gone: ArchivedMessage[] = [];
  for (const message of matching)
    if (await remembered.forget(conversationId, message.seq)) gone.push(message);
  const count = gone.length === 1 ? '1 remembered message' : `${gone.length} remembered messages`;
  return `Forgot ${count}: ${gone.map((message) => quote(message.text)).join(', ')}.`;
}
