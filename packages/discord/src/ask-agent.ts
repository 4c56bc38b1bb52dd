import type { AgentEvent, TokenBudgetAccount } from '@macstats/core';
import { type AnswerLabels, forAskerOnly, REPLY_CHAIN_SOURCE } from './answer-audience.js';
import { replyForAnswer } from './answer-controls.js';
import type { AnswerContext } from './answer-turn.js';
import type { Turn } from './decide-message.js';
import { DISCORD_BOT_DEFAULTS } from './defaults.js';
import { postedInChain } from './posted-labels.js';
import { type ChainEntry, formatReplyChain, othersInChain, replyChain } from './reply-chain.js';
import { listen } from './turn-audio.js';

/** One answer's state, shared by the pipeline and the agent's call. */
export interface AnswerRun {
  question: string;
  conversationId: string;
  model: string | undefined;
  signal: AbortSignal;
  onEvent(event: AgentEvent): void;
  /** Log fields. */
  where: Record<string, unknown>;
  started: number;
  /** Set when the model itself failed (an `error` event from it). */
  modelFailed: boolean;
  /** What the answer's context held, once the agent answered. */
  labels: AnswerLabels | undefined;
  /** The agent's own text when it answered without an error: what a spoken reply says. */
  answerText?: string;
  /** Whose daily token budget the turn's transcripts count against: its channel and agent. */
  account: TokenBudgetAccount;
}

/**
 * Voice messages in the reply chain, heard: each entry's transcript joins its content. Whose
 * words they are follows the entry's author (another member's stay outside content).
 */
async function hearChain(entries: ChainEntry[], context: AnswerContext, run: AnswerRun): Promise<void> {
  if (!context.voice.transcribe) return;
  for (const entry of entries) {
    if (entry.authorId === context.botId) continue;
    for (const audio of entry.audio ?? []) {
      const heard = await listen(audio, context.voice, run.signal, context.logger, run.account);
      entry.content = [
        entry.content,
        'text' in heard ? `(voice message: ${heard.text})` : '(a voice message)',
      ]
        .filter((text) => text !== '')
        .join(' ');
    }
  }
}

/**
 * Asks the turn's agent: the reply chain as context (others' messages, and their voice messages,
 * as outside content), the bot's own earlier posts with what they read, the channel's prompt and
 * model, the asker's approvals. Resolves with the reply text.
 */
export async function askTurnAgent(
  turn: Turn,
  images: string[],
  context: AnswerContext,
  run: AnswerRun,
): Promise<string> {
  const { logger } = context;
  const { signal, where } = run;
  const last = turn.messages.at(-1);
  if (!last) return '';
  const replied = turn.messages.find((message) => message.reference?.messageId !== undefined);
  const entries =
    replied && context.replyChainLimit > 0
      ? await replyChain(replied, context.replyChainLimit, context.botId, logger)
      : [];
  await hearChain(entries, context, run);
  const chain = formatReplyChain(entries);
  // Others' messages in the chain are outside content: anyone in the server could have written them.
  const outside = othersInChain(entries, turn.askerId, context.botId);
  // The bot's own messages in the chain bring back what their answers read (no record: outside).
  const fromBot = postedInChain(entries, context.botId, context.posted);
  outside.push(...fromBot.outside);
  // A `stop` while the images or the reply chain were fetched: the agent is not asked.
  signal.throwIfAborted();
  const model = run.model;
  const answer = await context
    .agentFor(turn)
    .answer(run.question === '' ? DISCORD_BOT_DEFAULTS.imageQuestion : run.question, {
      conversationId: run.conversationId,
      // A task the answer adds (TASK: add) belongs to the asker.
      askedBy: `discord:${turn.askerId}`,
      // The archive attributes the question to the asker's name, as the channel saw it.
      speaker: last.member?.displayName ?? last.author.globalName ?? last.author.username,
      signal,
      onEvent: run.onEvent,
      approve: context.approvals.approverFor({
        channelId: turn.channelId,
        askerId: turn.askerId,
        replyTo: last.id,
        inServer: turn.guildId !== null,
        where,
      }),
      // An answer that goes to the asker by DM is not the channel's conversation to remember.
      keepTurn: (held) => !forAskerOnly(held, turn.guildId !== null),
      ...(turn.config.prompt ? { systemPromptExtra: turn.config.prompt } : {}),
      ...(model ? { model } : {}),
      ...(chain ? { context: chain, contextSource: REPLY_CHAIN_SOURCE } : {}),
      ...(outside.length > 0
        ? {
            contextLabels: {
              outside,
              ...(fromBot.origins.length > 0 ? { outsideOrigins: fromBot.origins } : {}),
            },
          }
        : {}),
      ...(images.length > 0 ? { images } : {}),
    });
  run.labels = answer.labels;
  const result = replyForAnswer(answer, {
    errorMessage: context.errorMessage,
    modelFailed: run.modelFailed,
    logger,
    where,
  });
  if (answer.error === undefined) run.answerText = result;
  logger.info(
    {
      ...where,
      ms: context.timers.now() - run.started,
      toolCalls: answer.toolCalls?.length ?? 0,
      llmCalls: answer.llmCalls,
      images: images.length,
      error: answer.error,
    },
    'answer ready',
  );
  return result;
}
