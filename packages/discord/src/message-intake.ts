import type { Logger } from '@macstats/core';
import type { Message } from 'discord.js';
import { type ActiveAnswers, isStopRequest } from './active-answers.js';
import type { BotStateFile } from './bot-state-file.js';
import type { ChannelSettingsFile } from './channel-settings-file.js';
import { decideMessage, type Turn } from './decide-message.js';
import { KeyedQueue } from './keyed-queue.js';
import { questionOf } from './message-facts.js';
import type { RecentIds } from './recent-ids.js';
import type { Timers } from './timers.js';
import { TurnMerger } from './turn-merger.js';

const EMPTY_QUESTION_REPLY = 'Yes? Ask me something after the mention.';

/** The intake: `onMessage` for every message, `flush` to end merge windows when stopping. */
export interface MessageIntake {
  onMessage(message: Message): void;
  flush(): void;
}

/** What the intake needs from the bot. */
export interface IntakeContext {
  logger: Logger;
  timers: Timers;
  channelsFile: ChannelSettingsFile;
  allowBots: boolean;
  seen: RecentIds;
  state: BotStateFile;
  active: ActiveAnswers;
  /** One task at a time per channel, in order: answers, and the bookkeeping behind them. */
  workQueue: KeyedQueue;
  /** The bot's user id, once logged in. */
  botId(): string | undefined;
  /** Whether new messages are taken. */
  accepting(): boolean;
  /** Answers a turn; resolves false when it was dropped because the bot is stopping. */
  answer(turn: Turn): Promise<boolean>;
  /** Rapid messages from one asker within this many milliseconds are one turn; 0 turns it off. */
  mergeWindowMs: number;
  /** What the asker reads when a turn they stopped had not started. */
  stoppedMessage: string;
  /** Posts a short reply to a message. */
  reply(message: Message, text: string): Promise<unknown>;
}

/**
 * The way in for every message (live, replayed, or fetched by a catch-up): drops one seen before,
 * then, in order per channel, lets the asker stop their running answer or their newest waiting
 * turn with `stop` ({@link ActiveAnswers.stop}), decides whether to answer, merges rapid messages
 * from one asker ({@link TurnMerger}), and queues the answer. The last message handled per
 * channel is recorded in order behind the answers, so a restart starts after what was really
 * answered.
 */
export function createMessageIntake(context: IntakeContext): MessageIntake {
  const { logger } = context;
  const deciding = new KeyedQueue();

  const markSeen = (message: Message) =>
    context.state.markSeen(message.channelId, message.id, context.timers.now());

  const queue = (channelId: string, task: () => Promise<void>, messageId: string) =>
    context.workQueue
      .run(channelId, task)
      .catch((error: unknown) => logger.error({ err: error, messageId }, 'message handling failed'));

  const merger = new TurnMerger({
    windowMs: context.mergeWindowMs,
    timers: context.timers,
    queue,
    active: context.active,
    stopped: (turn) => {
      const last = turn.messages.at(-1);
      if (!last) return;
      context
        .reply(last, context.stoppedMessage)
        .catch((error: unknown) =>
          logger.warn({ err: error, messageId: last.id }, 'stop notice could not be sent'),
        );
    },
    handle: async (outcome) => {
      // A dropped turn was told so when it was stopped; its place in the queue only marks it seen.
      if (outcome.kind === 'answer' && !(await context.answer(outcome.turn))) return; // dropped by stop(): left for the next start
      for (const each of outcome.turn.messages) markSeen(each);
    },
  });

  async function take(message: Message, botId: string): Promise<void> {
    const decision = await decideMessage(message, botId, context.channelsFile, context.allowBots);
    if (decision.kind === 'ignore') {
      logger.debug(
        { messageId: message.id, channelId: message.channelId, reason: decision.reason },
        'message not answered',
      );
      void queue(message.channelId, async () => markSeen(message), message.id);
      return;
    }
    if (decision.kind === 'empty') {
      void queue(
        message.channelId,
        async () => {
          await context.reply(message, EMPTY_QUESTION_REPLY);
          markSeen(message);
        },
        message.id,
      );
      return;
    }
    const where = { messageId: message.id, channelId: message.channelId };
    if (merger.add(decision.turn)) logger.debug(where, 'message merged into the open turn');
    else logger.debug(where, 'message queued');
  }

  const onMessage = (message: Message) => {
    const botId = context.botId();
    if (!context.accepting() || !botId) return;
    // A message delivered twice (a replayed dispatch, a catch-up) is answered once.
    if (!context.seen.add(message.id)) {
      logger.debug({ messageId: message.id }, 'message delivered twice; answered once');
      return;
    }
    if (message.author.id === botId) return;
    deciding
      .run(message.channelId, async () => {
        // In order behind the channel's earlier messages: a question sent just before is queued.
        if (isStopRequest(questionOf(message, botId))) {
          const stopped = context.active.stop(message.channelId, message.author.id);
          if (stopped) {
            logger.info({ messageId: message.id, channelId: message.channelId, stopped }, 'stop requested');
            void queue(message.channelId, async () => markSeen(message), message.id);
            return;
          }
        }
        await take(message, botId);
      })
      .catch((error: unknown) =>
        logger.error({ err: error, messageId: message.id }, 'message handling failed'),
      );
  };
  return { onMessage, flush: () => merger.flush() };
}
