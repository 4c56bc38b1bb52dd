import type { AnswerLabels } from './answer-audience.js';
import type { AnswerContext } from './answer-turn.js';
import type { Turn } from './decide-message.js';
import { speakMode } from './speak-command.js';

/**
 * Speaks an answer's text and posts it as a Discord voice message beside the text, replying to
 * the question, when {@link speakMode} asks for it (the channel's `speak_replies` set to `off`
 * never; else the asker's `/speak` choice, the channel's `speak_replies`, the bot's
 * `speakReplies`): `always`, or `voice` when the turn had a voice note heard. A long answer is
 * spoken in part (the speaker decides how much); the text answer already holds all of it. Called
 * only once the text answer was posted in the channel (`deliverReply` said `channel`): never for
 * an answer sent to the asker alone by DM, held back, or not posted. Recorded with the answer's
 * labels, as its text is. A failure is logged: the text answer is the answer.
 */
export async function speakReply(
  turn: Turn,
  text: string,
  wasVoice: boolean,
  labels: AnswerLabels | undefined,
  context: AnswerContext,
): Promise<void> {
  const { voice, logger } = context;
  const mode = speakMode(turn.config.speakReplies, context.speakRepliesOf(turn.askerId), voice.speakReplies);
  if (!voice.speak || mode === 'off' || (mode === 'voice' && !wasVoice)) return;
  if (text.trim() === '') return;
  const last = turn.messages.at(-1);
  if (!last) return;
  const where = { messageId: last.id, channelId: turn.channelId };
  try {
    const speech = await voice.speak(text, { signal: AbortSignal.timeout(context.answerTimeoutMs) });
    const posted = labels ? { outside: labels.outside, origins: labels.origins ?? [] } : undefined;
    const id = await context.sendQueue.run(turn.channelId, () =>
      context.sender.sendVoice(turn.channelId, speech, { replyTo: last.id, labels: posted }),
    );
    logger.info(
      {
        ...where,
        voiceMessageId: id,
        durationSecs: speech.durationSecs,
        unspokenChars: speech.restText?.length ?? 0,
      },
      'spoken reply sent',
    );
  } catch (error) {
    logger.warn({ ...where, err: error }, 'the reply could not be spoken; the text answer stands');
  }
}
