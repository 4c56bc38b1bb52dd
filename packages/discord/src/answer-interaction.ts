import type { AgentEvent } from '@macstats/core';
import type { ChatInputCommandInteraction } from 'discord.js';
import { answerControls, replyForAnswer, replyForThrow } from './answer-controls.js';
import type { AnswerContext } from './answer-turn.js';
import { channelConfig } from './channel-settings.js';
import type { ChannelSettingsFile } from './channel-settings-file.js';
import { isModelFailure } from './failure-reply.js';
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
  const settings = await context.channelsFile.current();
  const parentId = interaction.channel?.isThread() ? (interaction.channel.parentId ?? undefined) : undefined;
  const config = channelConfig(settings, channelId, parentId);
  const where = { interactionId: interaction.id, channelId, authorId: interaction.user.id };
  const edit = async (text: string) => {
    await interaction.editReply({ content: text, allowedMentions: { parse: [] } });
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
  const controls = answerControls(context, channelId, {
    askerId: interaction.user.id,
    isOwnMessage: async () => false,
  });
  const conversationId = `discord-${channelId}`;
  let reply: string | undefined;
  let modelFailed = false;
  const model = context.modelFor({ channelId, config });
  try {
    const answer = await context.agent.answer(question, {
      conversationId,
      signal: controls.signal,
      onEvent: (event: AgentEvent) => {
        if (event.type === 'error' && isModelFailure(event.code)) modelFailed = true;
        const line = statusForEvent(event);
        if (line) status.update(line);
      },
      ...(config.prompt ? { systemPromptExtra: config.prompt } : {}),
      ...(model ? { model } : {}),
    });
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
    const [first = '', ...rest] = splitMessage(reply, context.maxReplyChars);
    await edit(first);
    for (const part of rest) await interaction.followUp({ content: part, allowedMentions: { parse: [] } });
    logger.info({ ...where, parts: rest.length + 1, chars: reply.length }, 'reply sent');
  } catch (error) {
    logger.error({ ...where, err: error }, 'reply could not be sent');
  }
}
