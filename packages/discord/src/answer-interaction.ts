import type { AgentEvent } from '@macstats/core';
import { type ChatInputCommandInteraction, MessageFlags } from 'discord.js';
import type { ActiveAnswers } from './active-answers.js';
import { type AnswerLabels, allowsLinkPreviews, forAskerOnly, SENT_EPHEMERAL } from './answer-audience.js';
import { answerControls, replyForAnswer, replyForThrow } from './answer-controls.js';
import type { AnswerContext } from './answer-turn.js';
import { channelConfig } from './channel-settings.js';
import type { ChannelSettingsFile } from './channel-settings-file.js';
import type { KeyedQueue } from './keyed-queue.js';
import { splitMessage } from './split-message.js';
import { StatusMessage } from './status-message.js';
import { statusForEvent } from './status-text.js';

/** What `/ask` needs beyond the message pipeline's context. */
export interface InteractionAnswerContext extends AnswerContext {
  channelsFile: ChannelSettingsFile;
  maxReplyChars: number;
}

/**
 * Answers a deferred `/ask`: the "thinking…" reply shows the agent's steps (throttled like the
 * status message), then becomes the answer's first part; further parts are follow-ups. Uses the
 * channel's conversation, prompt and model; `stop` from the asker cancels it as it does a message.
 */
export async function answerInteraction(
  interaction: ChatInputCommandInteraction,
  question: string,
  context: InteractionAnswerContext,
): Promise<void> {
  const { logger } = context;
  const channelId = interaction.channelId;
  const where = { interactionId: interaction.id, channelId, authorId: interaction.user.id };
  // Registered before the first await: the `/ask` left the waiting turns just before.
  const controls = answerControls(context, channelId, {
    askerId: interaction.user.id,
    isOwnMessage: async () => false,
  });
  // `flags` on every edit: Discord keeps SUPPRESS_EMBEDS across edits unless an edit says otherwise.
  const edit = async (text: string, suppressEmbeds = true) => {
    await interaction.editReply({
      content: text,
      allowedMentions: { parse: [] },
      flags: suppressEmbeds ? MessageFlags.SuppressEmbeds : [],
    });
  };
  const status = new StatusMessage(
    {
      create: async (text) => {
        await edit(text);
        return '@original';
      },
      edit: (_id, text) => edit(text),
    },
    context.statusIntervalMs,
    context.timers,
    logger,
  );
  const conversationId = `discord-${channelId}`;
  let reply: string | undefined;
  let labels: AnswerLabels | undefined;
  let modelFailed = false;
  const inServer = interaction.guildId !== null;
  try {
    const settings = await context.channelsFile.current();
    const parentId = interaction.channel?.isThread()
      ? (interaction.channel.parentId ?? undefined)
      : undefined;
    const config = channelConfig(settings, channelId, parentId);
    const model = context.modelFor({ channelId, config });
    // A `stop` while the settings were read: the agent is not asked.
    controls.signal.throwIfAborted();
    const answer = await context.agentFor({ channelId, config }).answer(question, {
      conversationId,
      signal: controls.signal,
      onEvent: (event: AgentEvent) => {
        if (event.type === 'error' && event.fromModel) modelFailed = true;
        const line = statusForEvent(event);
        if (line) status.update(line);
      },
      approve: context.approvals.approverFor({ channelId, askerId: interaction.user.id, inServer, where }),
      // An answer only the asker will see is not the channel's conversation to remember.
      keepTurn: (held) => !forAskerOnly(held, inServer),
      ...(config.prompt ? { systemPromptExtra: config.prompt } : {}),
      ...(model ? { model } : {}),
    });
    labels = answer.labels;
    reply = replyForAnswer(answer, { errorMessage: context.errorMessage, modelFailed, logger, where });
    logger.info({ ...where, llmCalls: answer.llmCalls, error: answer.error }, 'answer ready');
  } catch (error) {
    reply = await replyForThrow(error, controls, {
      agent: context.agent,
      conversationId,
      question,
      errorMessage: context.errorMessage,
      modelFailed,
      logger,
      where,
    });
  } finally {
    controls.end();
  }
  await status.finish();
  if (reply === undefined || context.isStopped()) return;
  try {
    const suppressEmbeds = !allowsLinkPreviews(labels);
    const askerOnly = forAskerOnly(labels, inServer);
    const parts = splitMessage(reply, context.maxReplyChars);
    // For the asker alone: the public reply says where the answer went, the answer follows
    // in ephemeral follow-ups only they see.
    const [first = '', ...rest] = askerOnly ? [SENT_EPHEMERAL, ...parts] : parts;
    await edit(first, askerOnly ? false : suppressEmbeds);
    const flags =
      (askerOnly ? MessageFlags.Ephemeral : 0) | (suppressEmbeds ? MessageFlags.SuppressEmbeds : 0);
    for (const part of rest)
      await interaction.followUp({ content: part, allowedMentions: { parse: [] }, flags });
    logger.info(
      { ...where, parts: parts.length, chars: reply.length, suppressEmbeds, askerOnly },
      'reply sent',
    );
  } catch (error) {
    logger.error({ ...where, err: error }, 'reply could not be sent');
  }
}

/** What queuing an `/ask` needs beyond answering it. */
export interface InteractionQueueContext extends InteractionAnswerContext {
  /** One task at a time per channel: the `/ask` waits there behind the channel's answers. */
  workQueue: KeyedQueue;
  /** What the asker reads when they stopped their `/ask` before it started. */
  stoppedMessage: string;
  /** False once the bot is stopping: an `/ask` still waiting is left unanswered. */
  answering(): boolean;
}

/**
 * Queues a deferred `/ask` behind the channel's earlier answers. While it waits, it is one of the
 * channel's waiting turns ({@link ActiveAnswers.wait}): a `stop` from its asker drops it, the
 * deferred reply becomes the stopped notice at once, and the agent is never asked (memory keeps
 * nothing of it, as for a message turn dropped before it started).
 */
export async function queueInteraction(
  interaction: ChatInputCommandInteraction,
  question: string,
  context: InteractionQueueContext,
): Promise<void> {
  const { logger } = context;
  const channelId = interaction.channelId;
  const where = { interactionId: interaction.id, channelId, authorId: interaction.user.id };
  let cancelled = false;
  const started = context.active.wait(channelId, {
    askerId: interaction.user.id,
    cancel: () => {
      cancelled = true;
      logger.info(where, 'waiting /ask stopped by the asker');
      interaction
        .editReply({ content: context.stoppedMessage, allowedMentions: { parse: [] } })
        .catch((error: unknown) => logger.warn({ ...where, err: error }, 'stop notice could not be sent'));
    },
  });
  logger.debug(where, '/ask queued');
  await context.workQueue.run(channelId, async () => {
    started();
    if (cancelled || !context.answering()) return;
    await answerInteraction(interaction, question, context);
  });
}
