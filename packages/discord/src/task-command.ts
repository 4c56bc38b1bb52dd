import { MacstatsError } from '@macstats/core';
import {
  ApplicationCommandOptionType,
  type ChatInputCommandInteraction,
  type RESTPostAPIChatInputApplicationCommandsJSONBody,
} from 'discord.js';

/** What `/task` asks the app for: a durable task owned by the asker, reporting to the channel. */
export interface DiscordTaskRequest {
  /** What to do, as the asker typed it. */
  instructions: string;
  /** The asker's user id: the task's owner. */
  userId: string;
  /** Where the command was used (a thread's own id in a thread): its progress and result go there. */
  channelId: string;
  /** The server, when not in a DM. */
  guildId?: string | undefined;
}

/**
 * The app's durable tasks, for `/task` (`@macstats/tasks` behind it in the apps). Without it
 * there is no `/task`.
 */
export interface DiscordTasks {
  /**
   * Adds the task and resolves with its id. A `MacstatsError` is bad input: its message (one
   * sentence) is shown to the asker; any other error is logged and reported as a failure.
   */
  add(request: DiscordTaskRequest): Promise<{ id: string }>;
}

/** `/task`, as registered when the app has tasks. */
export const TASK_COMMAND: RESTPostAPIChatInputApplicationCommandsJSONBody = {
  name: 'task',
  description: 'Give the bot a task that takes several steps; its result is posted in this channel.',
  options: [
    {
      type: ApplicationCommandOptionType.String,
      name: 'instructions',
      description: 'What the task should do',
      required: true,
      max_length: 4000,
    },
  ],
};

/** What the asker is told (only they see it) once the task is added. */
export function taskAddedText(id: string): string {
  return [
    `Added task \`${id}\`. It runs in steps; its result is posted in this channel when it ends.`,
    `Follow it on the bot's host with \`macstats task show ${id}\` (or \`macstats task cancel ${id}\`).`,
  ].join('\n');
}

/** Runs `/task`: adds the task, and resolves with the text of the asker's ephemeral reply. */
export async function taskCommand(
  interaction: ChatInputCommandInteraction,
  tasks: DiscordTasks,
): Promise<string> {
  const instructions = interaction.options.getString('instructions', true);
  try {
    const { id } = await tasks.add({
      instructions,
      userId: interaction.user.id,
      channelId: interaction.channelId,
      ...(interaction.guildId ? { guildId: interaction.guildId } : {}),
    });
    return taskAddedText(id);
  } catch (error) {
    if (MacstatsError.isInstance(error)) return error.message;
    throw error;
  }
}
