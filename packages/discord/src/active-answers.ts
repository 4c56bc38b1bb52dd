import type { Logger } from '@macstats/core';

/** An answer being made in a channel, as far as cancelling it goes. */
export interface ActiveAnswer {
  /** Who asked: only they can stop it. */
  askerId: string;
  /**
   * Whether a message is this answer's status message or one of its questions (a ❌ on either
   * stops it). Waits for a status message still being posted.
   */
  isOwnMessage(messageId: string): Promise<boolean>;
  /** Stops the answer (aborts the model call and the running tool). */
  cancel(): void;
}

/** The reaction that stops an answer; the bot adds it to its status message. */
export const STOP_EMOJI = '❌';

/** Words that stop the asker's answer when sent alone. */
const STOP_WORDS = new Set(['stop', 'cancel']);

/** True for a message that asks to stop: "stop" or "cancel" alone, any case, trailing punctuation allowed. */
export function isStopRequest(text: string): boolean {
  return STOP_WORDS.has(
    text
      .trim()
      .toLowerCase()
      .replace(/[.!]+$/, ''),
  );
}

/** The answer running in each channel (one at a time per channel). */
export class ActiveAnswers {
  private readonly byChannel = new Map<string, ActiveAnswer>();

  /** Registers the channel's running answer; returns the function that removes it. */
  add(channelId: string, answer: ActiveAnswer): () => void {
    this.byChannel.set(channelId, answer);
    return () => {
      if (this.byChannel.get(channelId) === answer) this.byChannel.delete(channelId);
    };
  }

  /** The running answer of a channel. */
  in(channelId: string): ActiveAnswer | undefined {
    return this.byChannel.get(channelId);
  }

  /** Stops the channel's answer when its asker put {@link STOP_EMOJI} on its status message or question. */
  onReaction(
    reaction: { channelId: string; messageId: string; emoji: string | null },
    userId: string,
    logger: Logger,
  ): void {
    const running = this.in(reaction.channelId);
    if (!running || reaction.emoji !== STOP_EMOJI || userId !== running.askerId) return;
    void running.isOwnMessage(reaction.messageId).then((own) => {
      if (!own) return;
      logger.info({ channelId: reaction.channelId, messageId: reaction.messageId }, 'stop requested');
      running.cancel();
    });
  }
}
