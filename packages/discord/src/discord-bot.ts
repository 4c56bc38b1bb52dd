import { ActiveAnswers } from './active-answers.js';
import { ApprovalPrompts } from './approval-prompts.js';
import { sendToChannel } from './bot-delivery.js';
import { createAnswerContext, wireMessages } from './bot-intake.js';
import { watchConnection, wireInteractions } from './bot-interactions.js';
import { startBot, stopBot } from './bot-lifecycle.js';
import { createBotParts } from './bot-parts.js';
import { DISCORD_BOT_DEFAULTS } from './defaults.js';
import { discordError } from './discord-errors.js';
import { askOwner } from './owner-approval.js';
import type { DiscordBot, DiscordBotOptions, OwnerApprovalRequest } from './types.js';

/**
 * Creates a Discord bot that answers DMs, mentions and replies to its own messages with `agent`,
 * following `discord_channels.json`, in channels, threads, forum posts and DMs. Messages are
 * answered one at a time per channel, in order, and many channels at once; each channel, thread or
 * DM is its own conversation, and a thread without an entry of its own follows its parent's.
 *
 * The bot is assembled from its seams: the shared parts ({@link createBotParts}), message intake
 * ({@link wireMessages}), interactions and slash commands ({@link wireInteractions}), its life
 * ({@link startBot}, {@link stopBot}) and delivery for other work ({@link sendToChannel}).
 *
 * @example
 * const bot = createDiscordBot({
 *   token: config.get('DISCORD_BOT_TOKEN') ?? '', // from @macstats/app-config's loadConfig in the app
 *   agent: createAgent({ ollama: { model: 'llama3.2:3b' }, tools: [] }),
 *   channelsFile: join(home, 'discord_channels.json'),
 * });
 * await bot.start();
 */
export function createDiscordBot(options: DiscordBotOptions): DiscordBot {
  const parts = createBotParts(options);
  const active = new ActiveAnswers();
  const approvals = new ApprovalPrompts(parts.sender, parts.logger, Date.now, {
    rules: options.approvalRules,
    pending: options.pendingApprovals,
  });
  const answerContext = createAnswerContext(parts, active, approvals);
  wireInteractions(parts, answerContext, approvals);
  const intake = wireMessages(parts, answerContext);
  watchConnection(parts);
  let stopping: Promise<void> | undefined;

  function stop(stopOptions: { graceMs?: number; waitFor?: PromiseLike<unknown> } = {}): Promise<void> {
    if (stopping) return stopping;
    if (parts.state === 'stopped') return Promise.resolve();
    const graceMs = stopOptions.graceMs ?? DISCORD_BOT_DEFAULTS.stopGraceMs;
    if (!Number.isFinite(graceMs) || graceMs < 0)
      return Promise.reject(
        discordError('INVALID_OPTION', 'stop({ graceMs }) needs a number of milliseconds, 0 or more.'),
      );
    stopping = stopBot(parts, intake, graceMs, stopOptions.waitFor);
    return stopping;
  }

  return {
    start: () => startBot(parts),
    stop,
    sendToChannel: (channelId, text, sendOptions) => sendToChannel(parts, channelId, text, sendOptions),
    askOwner: (request: OwnerApprovalRequest) => askOwner(approvals, request),
  };
}
