import type { Logger } from '@macstats/core';
import {
  type AnswerLabels,
  allowsLinkPreviews,
  dmHeading,
  forAskerOnly,
  NOT_SENT,
  SENT_BY_DM,
} from './answer-audience.js';
import type { KeyedQueue } from './keyed-queue.js';
import type { MessageSender } from './message-sender.js';

/** What posting a message turn's reply needs. */
export interface ReplyPlace {
  sender: MessageSender;
  sendQueue: KeyedQueue;
  logger: Logger;
  channelId: string;
  /** The question's message: the reply (or the note saying where it went) replies to it. */
  replyTo: string;
  askerId: string;
  /** False in a DM. */
  inServer: boolean;
  /** Log fields of the answer. */
  where: object;
}

/**
 * Where a reply went: the channel, the asker's DM (the channel told so), `held` (private data, and
 * the DM refused: the channel told it was not posted), or `failed` (nothing could be posted).
 */
export type ReplyOutcome = 'channel' | 'dm' | 'held' | 'failed';

/** The labels of the bot's own fixed sentences: they hold nothing an answer read. */
const NOTHING_READ = { outside: [], origins: [] };

/**
 * Posts a message turn's reply where its audience may read it: in the channel, replying to the
 * question, with link previews suppressed when outside content was in the answer's context; or,
 * when the answer holds the asker's private data and another member's words were in its context
 * ({@link forAskerOnly}), by DM to the asker, with one sentence in the channel saying so.
 * Resolves with where it went: anything else the answer sends there (its spoken reply) follows it.
 */
export async function deliverReply(
  place: ReplyPlace,
  reply: string,
  labels: AnswerLabels | undefined,
): Promise<ReplyOutcome> {
  const { sender, sendQueue, logger, channelId, where } = place;
  const suppressEmbeds = !allowsLinkPreviews(labels);
  // Recorded with the posts: a reply to one of them restores what the answer read.
  const posted = labels ? { outside: labels.outside, origins: labels.origins ?? [] } : undefined;
  const inChannel = (text: string, suppress: boolean, carried = posted) =>
    sendQueue.run(channelId, () =>
      sender.sendText(channelId, text, { replyTo: place.replyTo, suppressEmbeds: suppress, labels: carried }),
    );
  try {
    if (!forAskerOnly(labels, place.inServer)) {
      const ids = await inChannel(reply, suppressEmbeds);
      logger.info({ ...where, parts: ids.length, chars: reply.length, suppressEmbeds }, 'reply sent');
      return 'channel';
    }
    let dmId: string;
    try {
      dmId = await sender.openDm(place.askerId);
      await sendQueue.run(dmId, () =>
        sender.sendText(dmId, `${dmHeading(channelId)}\n${reply}`, { suppressEmbeds, labels: posted }),
      );
    } catch (error) {
      logger.warn({ ...where, err: error }, 'reply held back: private data, and the DM failed');
      await inChannel(NOT_SENT, false, NOTHING_READ);
      return 'held';
    }
    await inChannel(SENT_BY_DM, false, NOTHING_READ);
    logger.info(
      { ...where, dmChannelId: dmId, chars: reply.length, suppressEmbeds },
      'reply sent by DM: private data',
    );
    return 'dm';
  } catch (error) {
    logger.error({ ...where, err: error }, 'reply could not be sent');
    return 'failed';
  }
}
