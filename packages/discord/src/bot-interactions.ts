import { Events } from 'discord.js';
import { queueInteraction } from './answer-interaction.js';
import type { AnswerContext } from './answer-turn.js';
import { ApprovalPrompts } from './approval-prompts.js';
import type { BotParts } from './bot-parts.js';
import { DISCORD_BOT_DEFAULTS } from './defaults.js';
import { handleInteraction, type SlashContext } from './slash-commands.js';

/**
 * The bot's interactions: Approve and Deny clicks go to `approvals` (also while draining, since an
 * answer still finishing may wait for its asker's click); slash commands run while the bot runs,
 * `/ask` answered like a message in the channel's queue.
 */
export function wireInteractions(
  parts: BotParts,
  answerContext: AnswerContext,
  approvals: ApprovalPrompts,
): void {
  const { options, logger, client } = parts;
  const slashContext: SlashContext = {
    logger,
    timers: parts.timers,
    channelsFile: parts.channelsFile,
    state: parts.botState,
    listModels: options.listModels,
    agents: options.agents,
    tasks: options.tasks,
    remembered: options.remembered,
    speakReplies: options.speak ? (options.speakReplies ?? DISCORD_BOT_DEFAULTS.speakReplies) : undefined,
    forget:
      typeof options.agent.forget === 'function'
        ? (conversationId) => options.agent.forget?.(conversationId) ?? Promise.resolve()
        : undefined,
    memoryNotes: options.memoryNotes ?? false,
    approvals: {
      pending: approvals.pending,
      rules: approvals.rules,
      forgetConversation: (id) => approvals.forgetConversation(id),
    },
    ask: (interaction, question) =>
      queueInteraction(interaction, question, {
        ...answerContext,
        channelsFile: parts.channelsFile,
        maxReplyChars: options.maxReplyChars ?? DISCORD_BOT_DEFAULTS.maxReplyChars,
        workQueue: parts.workQueue,
        stoppedMessage: DISCORD_BOT_DEFAULTS.stoppedMessage,
        answering: () => parts.state === 'running',
      }),
  };
  client.on(Events.InteractionCreate, (interaction) => {
    // An answer still finishing while the bot drains may wait for its asker's click.
    if (interaction.isButton() && ApprovalPrompts.owns(interaction.customId)) {
      if (parts.state === 'running' || parts.state === 'draining')
        approvals
          .onButton(interaction)
          .catch((error: unknown) =>
            logger.warn({ err: error, interactionId: interaction.id }, 'approval click failed'),
          );
      return;
    }
    if (parts.state !== 'running') return;
    void handleInteraction(interaction, slashContext);
  });
}

/** Logs the gateway's comings and goings and tells the app of reconnects, rate limits and 429s. */
export function watchConnection(parts: BotParts): void {
  const { client, logger, emit } = parts;
  client.on(Events.ShardDisconnect, (event, shardId) =>
    logger.warn({ code: event.code, shardId }, 'gateway closed'),
  );
  client.on(Events.ShardReconnecting, (shardId) => {
    logger.info({ shardId }, 'gateway reconnecting');
    emit({ type: 'reconnect', shardId });
  });
  client.on(Events.ShardResume, (shardId, replayed) => logger.info({ shardId, replayed }, 'gateway resumed'));
  client.on(Events.ShardError, (error, shardId) => logger.warn({ err: error, shardId }, 'gateway error'));
  client.on(Events.Error, (error) => logger.error({ err: error }, 'discord.js error'));
  client.rest.on('rateLimited', (info) => {
    logger.warn(
      { route: info.route, retryAfter: info.retryAfter, global: info.global },
      'Discord rate limit',
    );
    emit({ type: 'rate-limited', global: info.global, route: info.route });
  });
  client.rest.on('response', (request, response) => {
    if (response.status === 429) emit({ type: 'http-429', route: request.route });
  });
}
