import {
  ApplicationCommandOptionType,
  type AutocompleteInteraction,
  type ChatInputCommandInteraction,
  PermissionFlagsBits,
  type RESTPostAPIChatInputApplicationCommandsJSONBody,
} from 'discord.js';
import type { DiscordAgents } from './bot-feature-options.js';
import type { BotStateFile } from './bot-state-file.js';
import type { Timers } from './timers.js';

/** The `/agent` value that clears the channel's choice. */
export const DEFAULT_AGENT = 'default';
const MAX_CHOICES = 25;

/** `/agent`, as registered when the app has agent profiles. */
export const AGENT_COMMAND: RESTPostAPIChatInputApplicationCommandsJSONBody = {
  name: 'agent',
  description: 'Show or change the agent that answers in this channel (changing needs Manage Server).',
  options: [
    {
      type: ApplicationCommandOptionType.String,
      name: 'id',
      description: `An agent, or "${DEFAULT_AGENT}"`,
      required: false,
      autocomplete: true,
    },
  ],
};

/** What `/agent` needs from the bot. */
export interface AgentCommandContext {
  agents: DiscordAgents;
  state: BotStateFile;
  timers: Timers;
}

/** Autocomplete for `/agent`: the agents whose id or description holds what was typed. */
export async function agentChoices(
  interaction: AutocompleteInteraction,
  agents: DiscordAgents,
): Promise<void> {
  const typed = interaction.options.getFocused().toLowerCase();
  const choices = [{ id: DEFAULT_AGENT, description: "the bot's own agent" }, ...agents.profiles]
    .filter((agent) => `${agent.id} ${agent.description}`.toLowerCase().includes(typed))
    .slice(0, MAX_CHOICES)
    .map((agent) => ({ name: `${agent.id}: ${agent.description}`.slice(0, 100), value: agent.id }));
  await interaction.respond(choices);
}

/**
 * `/agent` without an id says which agent answers here; with one, it sets the channel's agent
 * (kept with the channel's state, beside its `/model` choice), for members with Manage Server.
 */
export function agentCommand(
  interaction: ChatInputCommandInteraction,
  context: AgentCommandContext,
  fromFile: string | undefined,
): { content: string; ephemeral: boolean } {
  const id = interaction.options.getString('id')?.trim().toLowerCase();
  if (!id) {
    const chosen = context.state.agent(interaction.channelId);
    const content = chosen
      ? `The agent ${chosen} answers in this channel (chosen with /agent).`
      : fromFile
        ? `The agent ${fromFile} answers in this channel (from discord_channels.json).`
        : "The bot's own agent answers in this channel.";
    return { content, ephemeral: true };
  }
  const say = (content: string) => ({ content, ephemeral: false });
  if (!interaction.inGuild())
    return say("/agent changes a server channel's agent; in DMs the bot's own agent answers.");
  if (!interaction.memberPermissions.has(PermissionFlagsBits.ManageGuild))
    return say('Only members with the Manage Server permission can change the agent.');
  if (id === DEFAULT_AGENT) {
    context.state.setAgent(interaction.channelId, undefined, context.timers.now());
    return say("The bot's own agent now answers in this channel.");
  }
  if (!context.agents.profiles.some((agent) => agent.id === id)) {
    const ids = context.agents.profiles.map((agent) => agent.id).join(', ');
    return say(`There is no agent ${id}. The agents are: ${ids || 'none'}.`);
  }
  context.state.setAgent(interaction.channelId, id, context.timers.now());
  return say(`The agent ${id} now answers in this channel.`);
}
