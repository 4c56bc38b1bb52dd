import type { Agent, ForgetReport, Logger } from '@macstats/core';
import {
  ApplicationCommandOptionType,
  type AutocompleteInteraction,
  type ChatInputCommandInteraction,
  type Client,
  type Interaction,
  MessageFlags,
  PermissionFlagsBits,
  type RESTPutAPIApplicationCommandsJSONBody,
} from 'discord.js';
import { AGENT_COMMAND, agentChoices, agentCommand } from './agent-command.js';
import { APPROVALS_COMMAND, approvalsCommand, type DiscordApprovals } from './approvals-command.js';
import type { DiscordAgents } from './bot-feature-options.js';
import type { BotStateFile } from './bot-state-file.js';
import { channelConfig, isAllowed } from './channel-settings.js';
import type { ChannelSettingsFile } from './channel-settings-file.js';
import { type DiscordRememberedMessages, FORGET_COMMAND, forgetCommand } from './forget-command.js';
import { SPEAK_COMMAND, speakCommand } from './speak-command.js';
import { type DiscordTasks, TASK_COMMAND, taskCommand } from './task-command.js';
import type { Timers } from './timers.js';
import type { SpeakReplies } from './voice-options.js';

/** Autocomplete offers at most this many choices (Discord's limit). */
const MAX_CHOICES = 25;
/** The `/model` value that clears the channel's choice. */
const DEFAULT_MODEL = 'default';

/**
 * The slash commands, as registered; `/model` only when the app can list the installed models,
 * `/agent` only when it has agent profiles, `/task` only when it has tasks, `/speak` only when it
 * can speak.
 */
export function slashCommands(
  withModel: boolean,
  withAgents = false,
  withTasks = false,
  withRemembered = false,
  withSpeak = false,
): RESTPutAPIApplicationCommandsJSONBody {
  const commands: RESTPutAPIApplicationCommandsJSONBody = [
    {
      name: 'ask',
      description: 'Ask the bot a question in this channel.',
      options: [
        {
          type: ApplicationCommandOptionType.String,
          name: 'question',
          description: 'What to ask',
          required: true,
          max_length: 4000,
        },
      ],
    },
    { name: 'reset', description: "Forget this channel's conversation with the bot." },
    APPROVALS_COMMAND,
  ];
  if (withModel)
    commands.push({
      name: 'model',
      description: "Show or change this channel's model (changing needs Manage Server).",
      options: [
        {
          type: ApplicationCommandOptionType.String,
          name: 'name',
          description: `An installed model, or "${DEFAULT_MODEL}"`,
          required: false,
          autocomplete: true,
        },
      ],
    });
  if (withAgents) commands.push(AGENT_COMMAND);
  if (withTasks) commands.push(TASK_COMMAND);
  if (withRemembered) commands.push(FORGET_COMMAND);
  if (withSpeak) commands.push(SPEAK_COMMAND);
  return commands;
}

/** What the commands need from the bot. */
export interface SlashContext {
  logger: Logger;
  timers: Timers;
  channelsFile: ChannelSettingsFile;
  state: BotStateFile;
  /** The installed models, for `/model`. */
  listModels: (() => Promise<string[]>) | undefined;
  /** The agent profiles, for `/agent`. */
  agents?: DiscordAgents | undefined;
  /** The app's durable tasks, for `/task`. */
  tasks?: DiscordTasks | undefined;
  /** The remembered messages, for `/forget`. */
  remembered?: DiscordRememberedMessages | undefined;
  /** When the bot speaks replies (`speakReplies`), for `/speak`; undefined when it cannot speak. */
  speakReplies?: SpeakReplies | undefined;
  /** Forgets a conversation (core's `agent.forget`); undefined when the agent cannot. */
  forget: Agent['forget'] | undefined;
  /** `/reset` adds that notes saved with the MEMORY tool are kept. */
  memoryNotes: boolean;
  /** The pending approval cards and saved rules, for `/approvals`. */
  approvals: DiscordApprovals;
  /** Answers `/ask` (deferred already). */
  ask(interaction: ChatInputCommandInteraction, question: string): Promise<void>;
}

/** Registers the commands with one bulk overwrite (`PUT /applications/:id/commands`). */
export async function registerSlashCommands(
  client: Client<true>,
  withModel: boolean,
  withAgents = false,
  withTasks = false,
  withRemembered = false,
  withSpeak = false,
): Promise<number> {
  const registered = await client.application.commands.set(
    slashCommands(withModel, withAgents, withTasks, withRemembered, withSpeak),
  );
  return registered.size;
}

async function allowed(interaction: Interaction, context: SlashContext): Promise<boolean> {
  const settings = await context.channelsFile.current();
  return isAllowed(settings, {
    userId: interaction.user.id,
    ...(interaction.guildId ? { guildId: interaction.guildId } : {}),
  });
}

async function modelChoices(interaction: AutocompleteInteraction, context: SlashContext): Promise<void> {
  let models: string[] = [];
  try {
    models = (await context.listModels?.()) ?? [];
  } catch (error) {
    context.logger.warn({ err: error }, 'could not list the models for /model');
  }
  const typed = interaction.options.getFocused().toLowerCase();
  const choices = [DEFAULT_MODEL, ...models]
    .filter((name) => name.toLowerCase().includes(typed))
    .slice(0, MAX_CHOICES)
    .map((name) => ({ name, value: name }));
  await interaction.respond(choices);
}

function channelModel(
  interaction: ChatInputCommandInteraction,
  context: SlashContext,
  fromFile?: string,
): string {
  const chosen = context.state.model(interaction.channelId);
  if (chosen) return `This channel uses ${chosen} (chosen with /model).`;
  if (fromFile) return `This channel uses ${fromFile} (from discord_channels.json).`;
  return "This channel uses the bot's default model.";
}

async function setModel(
  interaction: ChatInputCommandInteraction,
  context: SlashContext,
  name: string,
): Promise<string> {
  if (!interaction.inGuild())
    return '/model changes the model of a server channel; in DMs the default model answers.';
  if (!interaction.memberPermissions.has(PermissionFlagsBits.ManageGuild))
    return 'Only members with the Manage Server permission can change the model.';
  if (name === DEFAULT_MODEL) {
    context.state.setModel(interaction.channelId, undefined, context.timers.now());
    return "This channel now uses the bot's default model.";
  }
  const models = (await context.listModels?.()) ?? [];
  if (!models.includes(name))
    return `${name} is not installed. Installed: ${models.slice(0, 20).join(', ') || 'none found'}.`;
  context.state.setModel(interaction.channelId, name, context.timers.now());
  return `This channel now uses ${name}.`;
}

async function runCommand(interaction: ChatInputCommandInteraction, context: SlashContext): Promise<void> {
  const ephemeral = { flags: MessageFlags.Ephemeral } as const;
  if (!(await allowed(interaction, context))) {
    await interaction.reply({ content: 'You are not on the list of people this bot answers.', ...ephemeral });
    return;
  }
  const conversationId = `discord-${interaction.channelId}`;
  switch (interaction.commandName) {
    case 'ask': {
      // Discord wants an answer within 3 s: "thinking…" now, the answer through the webhook.
      await interaction.deferReply();
      await context.ask(interaction, interaction.options.getString('question', true));
      return;
    }
    case 'reset': {
      // "This conversation" approvals go with the conversation.
      context.approvals.forgetConversation?.(conversationId);
      const report = (await context.forget?.(conversationId)) ?? undefined;
      const notes = context.memoryNotes ? ' Notes saved with MEMORY are kept.' : '';
      await interaction.reply({
        content: context.forget
          ? `${forgotSentence(report)}${notes}`
          : 'This bot keeps no conversation to forget.',
        allowedMentions: { parse: [] },
      });
      return;
    }
    case 'model': {
      const name = interaction.options.getString('name')?.trim();
      const fromFile = (await fileConfig(interaction, context)).model;
      const content = name
        ? await setModel(interaction, context, name)
        : channelModel(interaction, context, fromFile);
      await interaction.reply({ content, allowedMentions: { parse: [] }, ...(name ? {} : ephemeral) });
      return;
    }
    case 'forget': {
      if (!context.remembered) break;
      const content = await forgetCommand(interaction, conversationId, context.remembered);
      await interaction.reply({ content, allowedMentions: { parse: [] }, ...ephemeral });
      return;
    }
    case 'approvals': {
      const content = await approvalsCommand(interaction, context.approvals);
      await interaction.reply({ content, allowedMentions: { parse: [] }, ...ephemeral });
      return;
    }
    case 'task': {
      if (!context.tasks) break;
      const content = await taskCommand(interaction, context.tasks);
      await interaction.reply({ content, allowedMentions: { parse: [] }, ...ephemeral });
      return;
    }
    case 'speak': {
      if (context.speakReplies === undefined) break;
      const channelSetting = (await fileConfig(interaction, context)).speakReplies;
      const content = speakCommand(
        interaction,
        { state: context.state, botSetting: context.speakReplies },
        channelSetting,
      );
      await interaction.reply({ content, allowedMentions: { parse: [] }, ...ephemeral });
      return;
    }
    case 'agent': {
      if (!context.agents) break;
      const fromFile = (await fileConfig(interaction, context)).agent;
      const { content, ephemeral: quiet } = agentCommand(
        interaction,
        { agents: context.agents, state: context.state, timers: context.timers },
        fromFile,
      );
      await interaction.reply({ content, allowedMentions: { parse: [] }, ...(quiet ? ephemeral : {}) });
      return;
    }
  }
  await interaction.reply({ content: `Unknown command /${interaction.commandName}.`, ...ephemeral });
}

/** The channel's settings in `discord_channels.json` (a thread's, or else its parent's). */
async function fileConfig(interaction: ChatInputCommandInteraction, context: SlashContext) {
  const settings = await context.channelsFile.current();
  const parentId = interaction.channel?.isThread() ? (interaction.channel.parentId ?? undefined) : undefined;
  return channelConfig(settings, interaction.channelId, parentId);
}

/** Handles one interaction: a slash command, or `/model`'s autocomplete. Failures are logged. */
export async function handleInteraction(interaction: Interaction, context: SlashContext): Promise<void> {
  try {
    if (interaction.isAutocomplete()) {
      if (interaction.commandName === 'model' && (await allowed(interaction, context)))
        await modelChoices(interaction, context);
      else if (interaction.commandName === 'agent' && context.agents && (await allowed(interaction, context)))
        await agentChoices(interaction, context.agents);
      else await interaction.respond([]);
      return;
    }
    if (interaction.isChatInputCommand()) {
      context.logger.info(
        { command: interaction.commandName, channelId: interaction.channelId, userId: interaction.user.id },
        'slash command',
      );
      await runCommand(interaction, context);
    }
  } catch (error) {
    context.logger.error({ err: error, interactionId: interaction.id }, 'interaction failed');
  }
}

/** What `/reset` says it removed: the recent turns, the summary and the archived messages. */
export function forgotSentence(report: ForgetReport | undefined): string {
  if (!report)
    return "Forgot this channel's conversation: its recent turns, its summary and its archived messages.";
  const messages =
    report.archivedMessages === 1 ? '1 archived message' : `${report.archivedMessages} archived messages`;
  const turns = report.turns === 1 ? '1 recent turn' : `${report.turns} recent turns`;
  return `Forgot this channel's conversation: ${turns}, ${report.summary ? 'its summary' : 'no summary'} and ${messages}.`;
}
