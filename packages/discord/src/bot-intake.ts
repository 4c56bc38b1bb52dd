import { withSpan } from '@macstats/core/internal';
import { SpanKind, trace } from '@opentelemetry/api';
import { Events } from 'discord.js';
import type { ActiveAnswers } from './active-answers.js';
import { type AnswerContext, answerTurn } from './answer-turn.js';
import type { ApprovalPrompts } from './approval-prompts.js';
import type { BotParts } from './bot-parts.js';
import { catchUp } from './catch-up.js';
import { channelAgent } from './channel-agent.js';
import { DISCORD_BOT_DEFAULTS } from './defaults.js';
import { visionSupport } from './image-input.js';
import { createMessageIntake, type MessageIntake } from './message-intake.js';
import { RecentIds } from './recent-ids.js';
import { voiceSupport } from './turn-audio.js';

/** What answering a message (or a `/ask`) needs, from the bot's parts and options. */
export function createAnswerContext(
  parts: BotParts,
  active: ActiveAnswers,
  approvals: ApprovalPrompts,
): AnswerContext {
  const { options, client, botState } = parts;
  return {
    agent: options.agent,
    get botId() {
      return client.user?.id ?? '';
    },
    replyChainLimit: options.replyChainLimit ?? DISCORD_BOT_DEFAULTS.replyChainLimit,
    posted: parts.posted,
    vision: visionSupport(options),
    voice: voiceSupport(options),
    sender: parts.sender,
    sendQueue: parts.sendQueue,
    logger: parts.logger,
    timers: parts.timers,
    active,
    approvals,
    statusIntervalMs: options.statusIntervalMs ?? DISCORD_BOT_DEFAULTS.statusIntervalMs,
    typingIntervalMs: options.typingIntervalMs ?? DISCORD_BOT_DEFAULTS.typingIntervalMs,
    typingDelayMs: options.typingDelayMs ?? DISCORD_BOT_DEFAULTS.typingDelayMs,
    answerTimeoutMs: options.answerTimeoutMs ?? DISCORD_BOT_DEFAULTS.answerTimeoutMs,
    errorMessage: options.errorMessage ?? DISCORD_BOT_DEFAULTS.errorMessage,
    modelFor: (where) => botState.model(where.channelId) ?? where.config.model,
    agentFor: (where) => channelAgent(options, botState.agent(where.channelId) ?? where.config.agent),
    agentIdFor: (where) => botState.agent(where.channelId) ?? where.config.agent,
    speakRepliesOf: (userId) => botState.speakReplies(userId),
    isStopped: () => parts.state === 'stopped',
    isStopping: () => parts.state === 'draining' || parts.state === 'stopped',
    track: (controller: AbortController) => {
      parts.answers.add(controller);
      return () => parts.answers.delete(controller);
    },
  };
}

/**
 * The way messages come in: every new message (and those a catch-up fetches after READY) goes
 * to the intake, which answers it through {@link answerTurn} in one span per turn; ❌ by the asker
 * on a status message stops its answer.
 */
export function wireMessages(parts: BotParts, answerContext: AnswerContext): MessageIntake {
  const { options, client, logger, timers, botState } = parts;
  const { active } = answerContext;
  const tracer = trace.getTracer('@macstats/discord');
  const catchUpLimits = {
    maxAgeMs: options.catchUpMaxAgeMs ?? DISCORD_BOT_DEFAULTS.catchUpMaxAgeMs,
    maxMessages: options.catchUpMaxMessages ?? DISCORD_BOT_DEFAULTS.catchUpMaxMessages,
  };
  const intake = createMessageIntake({
    logger,
    timers,
    channelsFile: parts.channelsFile,
    allowBots: options.allowBots ?? DISCORD_BOT_DEFAULTS.allowBots,
    seen: new RecentIds(options.seenMessageLimit ?? DISCORD_BOT_DEFAULTS.seenMessageLimit),
    state: botState,
    active,
    workQueue: parts.workQueue,
    botId: () => client.user?.id,
    accepting: () => parts.state === 'running' || parts.state === 'starting',
    // One span per message handled (a merged turn is one); the answer's spans are its children.
    answer: (turn) =>
      withSpan(
        tracer,
        'process discord',
        {
          kind: SpanKind.CONSUMER,
          attributes: {
            'messaging.system': 'discord',
            'messaging.operation.type': 'process',
            'messaging.message.id': turn.messages.at(-1)?.id ?? '',
            'messaging.batch.message_count': turn.messages.length,
            'macstats.discord.channel_id': turn.channelId,
          },
        },
        async (span) => {
          const answered = await answerTurn(turn, answerContext);
          span.setAttribute('macstats.outcome', answered ? 'answered' : 'dropped');
          return answered;
        },
      ),
    mergeWindowMs: options.mergeWindowMs ?? DISCORD_BOT_DEFAULTS.mergeWindowMs,
    stoppedMessage: DISCORD_BOT_DEFAULTS.stoppedMessage,
    reply: (message, text) =>
      parts.sendQueue.run(message.channelId, () =>
        parts.sender.sendText(message.channelId, text, { replyTo: message.id }),
      ),
  });
  const onMessage = intake.onMessage;
  client.on(Events.MessageCreate, onMessage);
  // ❌ on the status message, by the asker, stops the answer.
  client.on(Events.MessageReactionAdd, (reaction, user) =>
    active.onReaction(
      { channelId: reaction.message.channelId, messageId: reaction.message.id, emoji: reaction.emoji.name },
      user.id,
      logger,
    ),
  );
  // READY (at start, and after a refused resume) means events may have been missed: fetch them.
  client.on(Events.ShardReady, (shardId) => {
    if (parts.state !== 'running' && parts.state !== 'starting') return;
    catchUp(client, botState, catchUpLimits, timers.now(), onMessage, logger).then(
      (count) => logger.info({ shardId, count }, 'gateway identified; caught up'),
      (error: unknown) => logger.warn({ shardId, err: error }, 'catch-up failed'),
    );
  });
  return intake;
}
