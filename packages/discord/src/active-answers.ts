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

/** A turn queued in a channel that has not started yet, as far as dropping it goes. */
export interface WaitingTurn {
  /** Who asked: only they can drop it. */
  askerId: string;
  /** Whether a message is one of this turn's questions (a ❌ on it drops the turn); none for `/ask`. */
  isOwnMessage?(messageId: string): boolean;
  /**
   * Drops the turn before it starts: the model is never asked, memory keeps nothing of it, and
   * the asker reads the stopped notice at once. Its place in the queue is still taken, for the
   * bookkeeping behind it.
   */
  cancel(): void;
}

/** What a `stop` reached: the asker's running answer, or their newest waiting turn. */
export type StopOutcome = 'running' | 'waiting';

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

/**
 * The answers of each channel, as far as stopping them goes: the one running (one at a time per
 * channel) and the turns queued behind it, oldest first (message turns and `/ask` alike). The one
 * home of both; the queue itself is the bot's work queue.
 */
export class ActiveAnswers {
  private readonly byChannel = new Map<string, ActiveAnswer>();
  private readonly waitingByChannel = new Map<string, WaitingTurn[]>();

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

  /**
   * Registers a turn queued in the channel; returns the function that removes it (call it when
   * the turn starts, before its answer registers with {@link add}, so no `stop` falls between).
   */
  wait(channelId: string, turn: WaitingTurn): () => void {
    const list = this.waitingByChannel.get(channelId) ?? [];
    list.push(turn);
    this.waitingByChannel.set(channelId, list);
    return () => this.removeWaiting(channelId, turn);
  }

  /**
   * Handles a `stop` from `askerId` in the channel: stops their running answer when they have
   * one, else drops their newest waiting turn (a second `stop` reaches the next one). Another
   * asker's answers and turns are never touched. Undefined when the asker had nothing to stop.
   */
  stop(channelId: string, askerId: string): StopOutcome | undefined {
    const running = this.in(channelId);
    if (running?.askerId === askerId) {
      running.cancel();
      return 'running';
    }
    const newest = this.waitingByChannel.get(channelId)?.findLast((turn) => turn.askerId === askerId);
    if (!newest) return undefined;
    this.removeWaiting(channelId, newest);
    newest.cancel();
    return 'waiting';
  }

  private removeWaiting(channelId: string, turn: WaitingTurn): void {
    const list = this.waitingByChannel.get(channelId);
    const index = list?.indexOf(turn) ?? -1;
    if (!list || index < 0) return;
    list.splice(index, 1);
    if (list.length === 0) this.waitingByChannel.delete(channelId);
  }

  /**
   * Stops the channel's answer when its asker put {@link STOP_EMOJI} on its status message or
   * question, or drops their waiting turn when the ❌ is on one of its questions.
   */
  onReaction(
    reaction: { channelId: string; messageId: string; emoji: string | null },
    userId: string,
    logger: Logger,
  ): void {
    if (reaction.emoji !== STOP_EMOJI) return;
    const where = { channelId: reaction.channelId, messageId: reaction.messageId };
    const waiting = this.waitingByChannel
      .get(reaction.channelId)
      ?.find((turn) => turn.askerId === userId && turn.isOwnMessage?.(reaction.messageId) === true);
    if (waiting) {
      logger.info(where, 'stop requested for a waiting question');
      this.removeWaiting(reaction.channelId, waiting);
      waiting.cancel();
      return;
    }
    const running = this.in(reaction.channelId);
    if (!running || userId !== running.askerId) return;
    void running.isOwnMessage(reaction.messageId).then((own) => {
      if (!own) return;
      logger.info(where, 'stop requested');
      running.cancel();
    });
  }
}
