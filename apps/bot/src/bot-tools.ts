import { type AssembledTools, assembleTools, type NoteBackend } from '@macstats/app-runtime';
import type { Logger, MessageArchive, ToolContext } from '@macstats/core';
import type { ScheduleSource } from '@macstats/scheduler';
import type { TaskStore } from '@macstats/tasks';
import type { AppConfig } from './app-config.js';

/** The Discord conversation id is `discord-<channel id>`; scheduled replies go back to that channel. */
export function channelOfConversation(context: ToolContext): string | undefined {
  const match = /^discord-(\d+)$/.exec(context.conversationId ?? '');
  return match?.[1];
}

/**
 * The bot's tools, from the catalog (`@macstats/app-runtime`): what `start`, `ask`, `tools` and
 * `mcp` offer, each use's share through `offered(use)`. A schedule added in a Discord
 * conversation replies to its channel.
 */
export function assembleBotTools(
  config: AppConfig,
  options: {
    logger: Logger;
    scheduleSource?: ScheduleSource | undefined;
    /** Where MEMORY keeps its notes (DATABASE_URL: the database, shared by every host); default the files. */
    noteBackend?: NoteBackend | undefined;
    /** Where TASK adds tasks (DATABASE_URL: the database, where the runners look); default the files. */
    taskStore?: TaskStore | undefined;
    /** Where every conversation's messages are kept (DATABASE_URL: the database); default the files. */
    messageArchive?: MessageArchive | undefined;
  },
): Promise<AssembledTools> {
  return assembleTools(config, {
    ...options,
    path: process.env.PATH,
    replyTo: channelOfConversation,
  });
}
