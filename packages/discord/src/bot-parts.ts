import { type Logger, silentLogger } from '@macstats/core';
import type { Client } from 'discord.js';
import { createBotClient } from './bot-client.js';
import { BotStateFile } from './bot-state-file.js';
import { ChannelSettingsFile } from './channel-settings-file.js';
import { checkOptions } from './check-bot-options.js';
import { DISCORD_BOT_DEFAULTS } from './defaults.js';
import { KeyedQueue } from './keyed-queue.js';
import { MessageSender } from './message-sender.js';
import { PostedLabels } from './posted-labels.js';
import { systemTimers, type Timers } from './timers.js';
import type { DiscordBotEvent, DiscordBotOptions } from './types.js';

/** Where the bot is in its life; `draining`: stop() was called with a grace period, answers in flight go on. */
export type BotState = 'idle' | 'starting' | 'running' | 'draining' | 'stopped';

/** What every part of a bot shares: its client, files, queues and state. */
export interface BotParts {
  options: DiscordBotOptions;
  logger: Logger;
  /** The API base without a trailing slash. */
  apiUrl: string;
  client: Client;
  posted: PostedLabels;
  sender: MessageSender;
  channelsFile: ChannelSettingsFile;
  botState: BotStateFile;
  timers: Timers;
  /** One task at a time per channel, in order: answers, and the bookkeeping behind them. */
  workQueue: KeyedQueue;
  /** One sender at a time per channel. */
  sendQueue: KeyedQueue;
  /** The answers in progress, for `stop()` to abort. */
  answers: Set<AbortController>;
  /** Tells the app's `onEvent`, never letting its throw out. */
  emit(event: DiscordBotEvent): void;
  /** The bot's current state; changed by start and stop only. */
  state: BotState;
}

/** Checks the options and builds what the bot's parts share. */
export function createBotParts(options: DiscordBotOptions): BotParts {
  checkOptions(options);
  const logger = options.logger ?? silentLogger;
  const apiUrl = (options.apiUrl ?? DISCORD_BOT_DEFAULTS.apiUrl).replace(/\/+$/, '');
  const client = createBotClient(options, apiUrl);
  const posted = new PostedLabels(options.postsFile, logger);
  const sender = new MessageSender(
    client.rest,
    options.maxReplyChars ?? DISCORD_BOT_DEFAULTS.maxReplyChars,
    options.nonceWindowMs ?? DISCORD_BOT_DEFAULTS.nonceWindowMs,
    posted,
  );
  const emit = (event: DiscordBotEvent) => {
    try {
      options.onEvent?.(event);
    } catch (error) {
      logger.warn({ err: error, event: event.type }, 'an onEvent listener threw');
    }
  };
  return {
    options,
    logger,
    apiUrl,
    client,
    posted,
    sender,
    channelsFile: new ChannelSettingsFile(options.channelsFile, logger),
    botState: new BotStateFile(options.stateFile, logger),
    timers: options.timers ?? systemTimers,
    workQueue: new KeyedQueue((depth) => emit({ type: 'queue', depth })),
    sendQueue: new KeyedQueue(),
    answers: new Set<AbortController>(),
    emit,
    state: 'idle',
  };
}
