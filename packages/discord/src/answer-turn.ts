import type { Agent, AgentEvent, Logger } from '@macstats/core';
import { type ActiveAnswers, STOP_EMOJI } from './active-answers.js';
import { type AnswerLabels, forAskerOnly, REPLY_CHAIN_SOURCE } from './answer-audience.js';
import { answerControls, replyForAnswer, replyForThrow } from './answer-controls.js';
import type { ApprovalPrompts } from './approval-prompts.js';
import type { Turn } from './decide-message.js';
import { DISCORD_BOT_DEFAULTS } from './defaults.js';
import { cannotSeeSentence, imageCandidates, loadImages, type VisionSupport } from './image-input.js';
import type { KeyedQueue } from './keyed-queue.js';
import type { MessageSender } from './message-sender.js';
import { type PostedLabels, postedInChain } from './posted-labels.js';
import { formatReplyChain, othersInChain, replyChain } from './reply-chain.js';
import { deliverReply } from './reply-delivery.js';
import { StatusMessage } from './status-message.js';
import { minorStatusForEvent, statusForEvent } from './status-text.js';
import type { Timers } from './timers.js';
import { startTyping } from './typing.js';

/** Everything the pipeline needs from the bot that runs it. */
export interface AnswerContext {
  agent: Pick<Agent, 'answer'> & Partial<Pick<Agent, 'remember'>>;
  sender: MessageSender;
  /** One sender at a time per channel, so two multi-part messages never interleave. */
  sendQueue: KeyedQueue;
  /** What the bot's posted messages carried, for a reply chain that holds them. */
  posted: PostedLabels;
  logger: Logger;
  timers: Timers;
  statusIntervalMs: number;
  typingIntervalMs: number;
  typingDelayMs: number;
  answerTimeoutMs: number;
  errorMessage: string;
  /** The answer running in each channel and the turns waiting behind it, for `stop` and ❌. */
  active: ActiveAnswers;
  /** Asks the asker to approve a call the containment policy holds (Approve and Deny buttons). */
  approvals: ApprovalPrompts;
  botId: string;
  /** Earlier messages of a reply chain given to the model. */
  replyChainLimit: number;
  /** What the model can do with images. */
  vision: VisionSupport;
  /** The model for a channel: its `/model` choice, else `discord_channels.json`'s. */
  modelFor(where: { channelId: string; config: { model?: string } }): string | undefined;
  /** The agent that answers in a channel: its `/agent` choice, its `agent` setting, or `agent`. */
  agentFor(where: { channelId: string; config: { agent?: string } }): Pick<Agent, 'answer'>;
  /** True once the bot is fully stopped: replies are no longer posted. */
  isStopped(): boolean;
  /** True once `stop()` was called (also while answers in flight may still finish): no new answers. */
  isStopping(): boolean;
  /** Registers an answer in progress so `stop()` can abort it; returns the unregister function. */
  track(controller: AbortController): () => void;
}

/**
 * Answers one turn: shows typing and the status message, asks the agent with the channel's
 * prompt and model (a thread's conversation is its own), posts the reply in parts (the first
 * replying to the turn's last message), then removes the status message. The asker can stop it
 * (`stop`, or ❌ on the status message): the agent's signal aborts and one line says so.
 * Failures become a short reply; the log has the detail. Resolves false when the turn was
 * dropped unanswered because the bot is stopping.
 */
export async function answerTurn(turn: Turn, context: AnswerContext): Promise<boolean> {
  if (context.isStopping()) return false;
  const { logger, sender } = context;
  const { channelId, config } = turn;
  const last = turn.messages.at(-1);
  if (!last) return true;
  const question = turn.questions.filter((text) => text !== '').join('\n');
  const where = {
    messageId: last.id,
    ...(turn.messages.length > 1 ? { merged: turn.messages.length } : {}),
    channelId,
    ...(turn.parentId !== undefined ? { parentId: turn.parentId } : {}),
    guildId: turn.guildId,
    authorId: turn.askerId,
  };
  logger.info({ ...where, questionChars: question.length, mode: config.mode }, 'answering message');

  const stopTyping = startTyping(
    () => sender.typing(channelId),
    context.typingIntervalMs,
    context.timers,
    logger,
    context.typingDelayMs,
  );
  const status = new StatusMessage(
    {
      create: async (text) => {
        const id = await sender.createStatus(channelId, text, last.id);
        // ❌ on the status message, ready to click: the asker's click stops the answer.
        sender
          .react(channelId, id, STOP_EMOJI)
          .catch((error: unknown) => logger.debug({ ...where, err: error }, 'stop reaction not added'));
        return id;
      },
      edit: (id, text) => sender.edit(channelId, id, text),
    },
    context.statusIntervalMs,
    context.timers,
    logger,
  );
  const controls = answerControls(context, channelId, {
    askerId: turn.askerId,
    isOwnMessage: async (id) =>
      turn.messages.some((message) => message.id === id) || (await status.posted()) === id,
  });
  const conversationId = `discord-${channelId}`;
  let modelFailed = false;
  let reply: string | undefined;
  // What the answer's context held: no agent asked (an image alone) means nothing; a throw, unknown.
  let labels: AnswerLabels | undefined = { outside: [], private: [] };
  const started = context.timers.now();
  const onEvent = (event: AgentEvent) => {
    try {
      if (event.type === 'error' && event.fromModel) modelFailed = true;
      const line = statusForEvent(event);
      if (line) status.update(line);
      else {
        const minor = minorStatusForEvent(event);
        if (minor) status.update(minor, { create: false });
      }
    } catch (error) {
      logger.warn({ ...where, err: error }, 'agent event could not be shown');
    }
  };
  const model = context.modelFor(turn);
  const { signal } = controls;
  const askAgent = async (images: string[]): Promise<string> => {
    const replied = turn.messages.find((message) => message.reference?.messageId !== undefined);
    const entries =
      replied && context.replyChainLimit > 0
        ? await replyChain(replied, context.replyChainLimit, context.botId, logger)
        : [];
    const chain = formatReplyChain(entries);
    // Others' messages in the chain are outside content: anyone in the server could have written them.
    const outside = othersInChain(entries, turn.askerId, context.botId);
    // The bot's own messages in the chain bring back what their answers read (no record: outside).
    const fromBot = postedInChain(entries, context.botId, context.posted);
    outside.push(...fromBot.outside);
    // A `stop` while the images or the reply chain were fetched: the agent is not asked.
    signal.throwIfAborted();
    const answer = await context
      .agentFor(turn)
      .answer(question === '' ? DISCORD_BOT_DEFAULTS.imageQuestion : question, {
        conversationId,
        // A task the answer adds (TASK: add) belongs to the asker.
        askedBy: `discord:${turn.askerId}`,
        // The archive attributes the question to the asker's name, as the channel saw it.
        speaker: last.member?.displayName ?? last.author.globalName ?? last.author.username,
        signal,
        onEvent,
        approve: context.approvals.approverFor({
          channelId,
          askerId: turn.askerId,
          replyTo: last.id,
          inServer: turn.guildId !== null,
          where,
        }),
        // An answer that goes to the asker by DM is not the channel's conversation to remember.
        keepTurn: (held) => !forAskerOnly(held, turn.guildId !== null),
        ...(config.prompt ? { systemPromptExtra: config.prompt } : {}),
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
    labels = answer.labels;
    const result = replyForAnswer(answer, { errorMessage: context.errorMessage, modelFailed, logger, where });
    logger.info(
      {
        ...where,
        ms: context.timers.now() - started,
        toolCalls: answer.toolCalls?.length ?? 0,
        llmCalls: answer.llmCalls,
        images: images.length,
        error: answer.error,
      },
      'answer ready',
    );
    return result;
  };
  try {
    const { images, cannotSee } = await imagesFor(turn, model, context.vision, signal, logger);
    if (cannotSee === undefined) reply = await askAgent(images);
    // An image alone, for a model that cannot see it: the sentence is the whole answer.
    else reply = question === '' ? cannotSee : `${cannotSee}\n\n${await askAgent([])}`;
  } catch (error) {
    labels = undefined;
    reply = await replyForThrow(error, controls, {
      agent: context.agent,
      conversationId,
      question,
      errorMessage: context.errorMessage,
      modelFailed,
      logger,
      where: { ...where, ms: context.timers.now() - started },
    });
  } finally {
    stopTyping();
    controls.end();
  }

  const statusId = await status.finish();
  if (reply !== undefined && !context.isStopped())
    await deliverReply(
      {
        sender,
        sendQueue: context.sendQueue,
        logger,
        channelId,
        replyTo: last.id,
        askerId: turn.askerId,
        inServer: turn.guildId !== null,
        where,
      },
      reply,
      labels,
    );
  if (statusId !== undefined)
    await sender
      .remove(channelId, statusId)
      .catch((error: unknown) =>
        logger.warn({ ...where, err: error }, 'status message could not be removed'),
      );
  return !controls.stoppedByBot();
}

/** The turn's images for a model that sees them; for one that does not, the sentence to say so. */
async function imagesFor(
  turn: Turn,
  model: string | undefined,
  vision: VisionSupport,
  signal: AbortSignal,
  logger: Logger,
): Promise<{ images: string[]; cannotSee?: string }> {
  const candidates = imageCandidates(turn.messages);
  if (candidates.length === 0) return { images: [] };
  const canSee = await vision.canSee(model).catch((error: unknown) => {
    logger.warn({ err: error, model }, 'could not ask whether the model reads images; assuming not');
    return false;
  });
  if (canSee) return { images: await loadImages(candidates, vision, signal, logger) };
  const other = await vision.visionModel().catch(() => undefined);
  return { images: [], cannotSee: cannotSeeSentence(model, other) };
}
