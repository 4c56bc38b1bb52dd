import type { Agent, AgentEvent, Logger } from '@macstats/core';
import { type ActiveAnswers, STOP_EMOJI } from './active-answers.js';
import { answerControls, replyForThrow } from './answer-controls.js';
import type { ApprovalPrompts } from './approval-prompts.js';
import { type AnswerRun, askTurnAgent } from './ask-agent.js';
import type { Turn } from './decide-message.js';
import { DISCORD_BOT_DEFAULTS } from './defaults.js';
import { cannotSeeSentence, imageCandidates, loadImages, type VisionSupport } from './image-input.js';
import type { KeyedQueue } from './keyed-queue.js';
import type { MessageSender } from './message-sender.js';
import type { PostedLabels } from './posted-labels.js';
import { deliverReply } from './reply-delivery.js';
import { speakReply } from './spoken-reply.js';
import { StatusMessage } from './status-message.js';
import { minorStatusForEvent, statusForEvent } from './status-text.js';
import type { Timers } from './timers.js';
import { quoteHeard, type TurnAudio, transcribeTurn, type VoiceSupport } from './turn-audio.js';
import { startTyping } from './typing.js';
import type { SpeakReplies } from './voice-options.js';

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
  /** Voice notes in, spoken replies out. */
  voice: VoiceSupport;
  /** The model for a channel: its `/model` choice, else `discord_channels.json`'s. */
  modelFor(where: { channelId: string; config: { model?: string } }): string | undefined;
  /** The agent that answers in a channel: its `/agent` choice, its `agent` setting, or `agent`. */
  agentFor(where: { channelId: string; config: { agent?: string } }): Pick<Agent, 'answer'>;
  /** When answers to a user are spoken, as they chose with `/speak`; undefined: not chosen. */
  speakRepliesOf(userId: string): SpeakReplies | undefined;
  /** The id of the agent profile that answers in a channel, or undefined for the bot's agent. */
  agentIdFor(where: { channelId: string; config: { agent?: string } }): string | undefined;
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
  const where = {
    messageId: last.id,
    ...(turn.messages.length > 1 ? { merged: turn.messages.length } : {}),
    channelId,
    ...(turn.parentId !== undefined ? { parentId: turn.parentId } : {}),
    guildId: turn.guildId,
    authorId: turn.askerId,
  };
  const typedChars = turn.questions.reduce((sum, text) => sum + text.length, 0);
  logger.info({ ...where, questionChars: typedChars, mode: config.mode }, 'answering message');

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
  const run: AnswerRun = {
    question: '',
    conversationId: `discord-${channelId}`,
    // Transcripts count against the same budgets as the answer: its channel and agent.
    account: { conversationId: `discord-${channelId}`, account: { agent: context.agentIdFor(turn) } },
    model: context.modelFor(turn),
    signal: controls.signal,
    where,
    started: context.timers.now(),
    modelFailed: false,
    // What the answer's context held: no agent asked (an image alone) means nothing; a throw, unknown.
    labels: { outside: [], private: [] },
    onEvent: (event: AgentEvent) => {
      try {
        if (event.type === 'error' && event.fromModel) run.modelFailed = true;
        const line = statusForEvent(event);
        if (line) status.update(line);
        else {
          const minor = minorStatusForEvent(event);
          if (minor) status.update(minor, { create: false });
        }
      } catch (error) {
        logger.warn({ ...where, err: error }, 'agent event could not be shown');
      }
    },
  };
  let reply: string | undefined;
  let heard: TurnAudio = { questions: turn.questions, heard: [], problems: [] };
  try {
    heard = await transcribeTurn(turn, context.voice, run.signal, logger, run.account, () =>
      status.update(DISCORD_BOT_DEFAULTS.transcribingStatus),
    );
    run.question = heard.questions.filter((text) => text !== '').join('\n');
    reply = await replyText(turn, heard, context, run);
  } catch (error) {
    run.labels = undefined;
    reply = await replyForThrow(error, controls, {
      agent: context.agent,
      conversationId: run.conversationId,
      question: run.question,
      errorMessage: context.errorMessage,
      modelFailed: run.modelFailed,
      logger,
      where: { ...where, ms: context.timers.now() - run.started },
    });
  } finally {
    stopTyping();
    controls.end();
  }
  const statusId = await status.finish();
  const delivered =
    reply !== undefined && !context.isStopped()
      ? await deliverReply(
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
          run.labels,
        )
      : undefined;
  // A voice message is a send like the text: it goes only where the text answer went, the
  // channel (not when the answer went to the asker alone by DM, or could not be posted).
  if (delivered === 'channel' && run.answerText !== undefined && !context.isStopped())
    await speakReply(turn, run.answerText, heard.heard.length > 0, run.labels, context);
  if (statusId !== undefined)
    await sender
      .remove(channelId, statusId)
      .catch((error: unknown) =>
        logger.warn({ ...where, err: error }, 'status message could not be removed'),
      );
  return !controls.stoppedByBot();
}

/**
 * The reply's text: what was heard quoted first (when the channel asks for it), a sentence per
 * voice note not heard or image not seen, then the agent's answer to the rest.
 */
async function replyText(
  turn: Turn,
  heard: TurnAudio,
  context: AnswerContext,
  run: AnswerRun,
): Promise<string> {
  const { images, cannotSee } = await imagesFor(turn, run.model, context.vision, run.signal, context.logger);
  const lines = [...heard.problems];
  if (cannotSee !== undefined) lines.push(cannotSee);
  // A voice note not heard, or an image alone a model cannot see: the sentences are the answer.
  const nothingToAsk = run.question === '' && (images.length === 0 || cannotSee !== undefined);
  const hasAsked = !(nothingToAsk && lines.length > 0);
  const answer = hasAsked
    ? await askTurnAgent(turn, cannotSee === undefined ? images : [], context, run)
    : '';
  const quote = (turn.config.quoteTranscripts ?? context.voice.quoteTranscripts) && heard.heard.length > 0;
  // A sentence the answer repeats (a spent budget refuses the voice note and the typed words alike) is said once.
  const said = lines.filter((line) => line !== answer.trim());
  return [quote ? quoteHeard(heard.heard) : '', said.join('\n'), answer]
    .filter((part) => part !== '')
    .join('\n\n');
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
