import type { Turn } from './decide-message.js';
import type { Timers } from './timers.js';

/** Messages merged into one turn at most. */
const MAX_MERGED = 10;

interface Batch {
  turn: Turn;
  started: boolean;
  cancelled: boolean;
  timer: unknown;
  /** Resolves when the window after the batch's last message has passed (or at once on flush). */
  windowPassed: Promise<void>;
  endWindow: () => void;
}

/** What happens to a batch once its turn comes. */
export type BatchOutcome = { kind: 'answer'; turn: Turn } | { kind: 'cancelled'; turn: Turn };

/**
 * Merges rapid messages: a question from the asker of a turn not started yet (still within the
 * window after their last message, or waiting behind another answer) joins that turn, so "hey"
 * then "what's the load?" get one answer. The window restarts with each message; another asker's
 * message closes the open turn to merging. With a window of 0, nothing is merged or delayed.
 */
export class TurnMerger {
  private readonly open = new Map<string, Batch>();

  constructor(
    private readonly windowMs: number,
    private readonly timers: Timers,
    /** Queues a channel's task behind its earlier ones. */
    private readonly queue: (channelId: string, task: () => Promise<void>, messageId: string) => void,
    private readonly handle: (outcome: BatchOutcome) => Promise<void>,
  ) {}

  /**
   * Adds a turn of one message: merged into the asker's open turn (true), or queued as a new one
   * (false).
   */
  add(turn: Turn): boolean {
    const open = this.open.get(turn.channelId);
    if (
      this.windowMs > 0 &&
      open &&
      !open.started &&
      !open.cancelled &&
      open.turn.askerId === turn.askerId &&
      open.turn.messages.length < MAX_MERGED
    ) {
      open.turn.messages.push(...turn.messages);
      open.turn.questions.push(...turn.questions);
      this.restartWindow(open);
      return true;
    }
    const batch = this.newBatch(turn);
    if (this.windowMs > 0) this.open.set(turn.channelId, batch);
    else this.open.delete(turn.channelId);
    this.queue(
      turn.channelId,
      async () => {
        await batch.windowPassed;
        batch.started = true;
        if (this.open.get(turn.channelId) === batch) this.open.delete(turn.channelId);
        await this.handle({ kind: batch.cancelled ? 'cancelled' : 'answer', turn: batch.turn });
      },
      turn.messages[0]?.id ?? '',
    );
    return false;
  }

  /** Cancels the asker's turn that has not started yet; true when there was one. */
  cancel(channelId: string, askerId: string): boolean {
    const open = this.open.get(channelId);
    if (!open || open.started || open.cancelled || open.turn.askerId !== askerId) return false;
    open.cancelled = true;
    this.timers.clearTimeout(open.timer);
    open.endWindow();
    return true;
  }

  /** Ends every window now (the bot is stopping: nothing waits any longer). */
  flush(): void {
    for (const batch of this.open.values()) {
      this.timers.clearTimeout(batch.timer);
      batch.endWindow();
    }
  }

  private newBatch(turn: Turn): Batch {
    let endWindow!: () => void;
    const windowPassed = new Promise<void>((resolve) => {
      endWindow = resolve;
    });
    const batch: Batch = {
      turn,
      started: false,
      cancelled: false,
      timer: undefined,
      windowPassed,
      endWindow,
    };
    if (this.windowMs > 0) batch.timer = this.timers.setTimeout(endWindow, this.windowMs);
    else endWindow();
    return batch;
  }

  private restartWindow(batch: Batch): void {
    this.timers.clearTimeout(batch.timer);
    batch.timer = this.timers.setTimeout(batch.endWindow, this.windowMs);
  }
}
