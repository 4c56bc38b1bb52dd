import type { Agent, AgentEvent, Logger } from '@macstats/core';
import type { Message } from 'discord.js';
import { channelConfig } from './channel-settings.js';
import type { ChannelSettingsFile } from './channel-settings-file.js';
import { DISCORD_BOT_DEFAULTS } from './defaults.js';
import { isModelFailure, withHint } from './failure-reply.js';
import type { KeyedQueue } from './keyed-queue.js';
import { factsOf, questionOf, threadParentOf } from './message-facts.js';
import type { MessageSender } from './message-sender.js';
import { shouldAnswer } from './should-answer.js';
import { StatusMessage } from './status-message.js';
import { statusForEvent } from './status-text.js';
import type { Timers } from './timers.js';
import { startTyping } from './typing.js';

/** Everything the pipeline needs from the bot that runs it. */
export interface AnswerContext {
  agent: Pick<Agent, 'answer'>;
  sender: MessageSender;
  /** One sender at a time per channel, so two multi-part messages never interleave. */
  sendQueue: KeyedQueue;
  channelsFile: ChannelSettingsFile;
  logger: Logger;
  timers: Timers;
  botId: string;
  allowBots: boolean;
  statusIntervalMs: number;
  typingIntervalMs: number;
  answerTimeoutMs: number;
  errorMessage: string;
  /** True once the bot is fully stopped: replies are no longer posted. */
  isStopped(): boolean;
  /** True once `stop()` was called (also while answers in flight may still finish): no new answers. */
  isStopping(): boolean;
  /** Registers an answer in progress so `stop()` can abort it; returns the unregister function. */
  track(controller: AbortController): () => void;
}

const EMPTY_QUESTION_REPLY = 'Yes? Ask me something after the mention.';

/**
 * Handles one message: decides whether to answer, shows typing and the status message, asks the
 * agent with the channel's prompt and model (a thread's own, else its parent's; its conversation
 * is the thread's alone), and posts the reply in parts (the first replying to
 * the message), then removes the status message. Failures become a short reply; the log has the
 * detail. Resolves false when the message was dropped unanswered because the bot is stopping.
 */
export async function answerMessage(message: Message, context: AnswerContext): Promise<boolean> {
  if (context.isStopping()) return false;
  const { logger, sender, botId } = context;
  const channelId = message.channelId;
  const settings = await context.channelsFile.current();
  const parentId = threadParentOf(message);
  const config = channelConfig(settings, channelId, parentId);
  const where = {
    messageId: message.id,
    channelId,
    ...(parentId !== undefined ? { parentId } : {}),
    guildId: message.guildId,
    authorId: message.author.id,
  };
  const decision = shouldAnswer(factsOf(message, botId), settings, config, context.allowBots);
  if (!decision.answer) {
    logger.debug({ ...where, reason: decision.reason }, 'message not answered');
    return true;
  }
  const question = questionOf(message, botId);
  const send = (text: string) =>
    context.sendQueue.run(channelId, () => sender.sendText(channelId, text, message.id));
  if (question === '') {
    await send(EMPTY_QUESTION_REPLY);
    return true;
  }
  logger.info({ ...where, questionChars: question.length, mode: config.mode }, 'answering message');

  const stopTyping = startTyping(
    () => sender.typing(channelId),
    context.typingIntervalMs,
    context.timers,
    logger,
  );
  const status = new StatusMessage(
    {
      create: (text) => sender.createStatus(channelId, text, message.id),
      edit: (id, text) => sender.edit(channelId, id, text),
    },
    context.statusIntervalMs,
    context.timers,
    logger,
  );
  const stop = new AbortController();
  const untrack = context.track(stop);
  const timeout = AbortSignal.timeout(context.answerTimeoutMs);
  let modelFailed = false;
  let reply: string | undefined;
  const started = context.timers.now();
  const onEvent = (event: AgentEvent) => {
    try {
      if (event.type === 'error' && isModelFailure(event.code)) modelFailed = true;
      const line = statusForEvent(event);
      if (line) status.update(line);
    } catch (error) {
      logger.warn({ ...where, err: error }, 'agent event could not be shown');
    }
  };
  try {
    const answer = await context.agent.answer(question, {
      conversationId: `discord-${channelId}`,
      signal: AbortSignal.any([stop.signal, timeout]),
      onEvent,
      ...(config.prompt ? { systemPromptExtra: config.prompt } : {}),
      ...(config.model ? { model: config.model } : {}),
    });
    const text = typeof answer.text === 'string' ? answer.text.trim() : '';
    if (answer.error !== undefined) {
      // A failed answer is never shown as if it were one: its sentence (or the error message),
      // with the hint when the model could not be used.
      if (isModelFailure(answer.error.code)) modelFailed = true;
      reply = text === '' ? context.errorMessage : text;
      logger.warn({ ...where, code: answer.error.code, error: answer.error.message }, 'answer failed');
    } else {
      reply = text === '' ? DISCORD_BOT_DEFAULTS.emptyAnswerMessage : text;
    }
    if (modelFailed) reply = withHint(reply, DISCORD_BOT_DEFAULTS.unreachableHint);
    logger.info(
      {
        ...where,
        ms: context.timers.now() - started,
        toolCalls: answer.toolCalls?.length ?? 0,
        llmCalls: answer.llmCalls,
        error: answer.error,
      },
      'answer ready',
    );
  } catch (error) {
    if (!stop.signal.aborted) {
      const timedOut = timeout.aborted;
      logger.error({ ...where, err: error, timedOut }, timedOut ? 'answer timed out' : 'answer failed');
      reply = timedOut ? DISCORD_BOT_DEFAULTS.timeoutMessage : context.errorMessage;
      if (modelFailed || isModelFailure(error)) reply = withHint(reply, DISCORD_BOT_DEFAULTS.unreachableHint);
    }
  } finally {
    stopTyping();
    untrack();
  }

  const statusId = await status.finish();
  if (reply !== undefined && !context.isStopped()) {
    try {
      const ids = await send(reply);
      logger.info({ ...where, parts: ids.length, chars: reply.length }, 'reply sent');
    } catch (error) {
      logger.error({ ...where, err: error }, 'reply could not be sent');
    }
  }
  if (statusId !== undefined)
    await sender
      .remove(channelId, statusId)
      .catch((error: unknown) =>
        logger.warn({ ...where, err: error }, 'status message could not be removed'),
      );
  return !stop.signal.aborted;
}
