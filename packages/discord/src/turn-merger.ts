import type { ActiveAnswers } from './active-answers.js';
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

/** What a {@link TurnMerger} works with. */
export interface TurnMergerOptions {
  /** Rapid messages within this many milliseconds are one turn; 0 merges nothing. */
  windowMs: number;
  timers: Timers;
  /** Queues a channel's task behind its earlier ones. */
  queue: (channelId: string, task: () => Promise<void>, messageId: string) => void;
  /** Where each batch waits until it starts, so its asker can drop it with `stop`. */
  active: ActiveAnswers;
  /** Tells the asker at once that a batch they dropped will not be answered. */
  stopped: (turn: Turn) => void;
  /** Runs a batch when its turn comes: answered, or (dropped before) only its bookkeeping. */
  handle: (outcome: BatchOutcome) => Promise<void>;
}

/**
 * Merges rapid messages: a question from the asker of a turn not started yet (still within the
 * window after their last message, or waiting behind another answer) joins that turn, so "hey"
 * then "what's the load?" get one answer. The window restarts with each message; another asker's
 * message closes the open turn to merging. With a window of 0, nothing is merged or delayed.
 * Every batch waits in {@link ActiveAnswers} until it starts: its asker's `stop` drops it.
 */
export class TurnMerger {
  private readonly open = new Map<string, Batch>();

  constructor(private readonly options: TurnMergerOptions) {}

  /**
   * Adds a turn of one message: merged into the asker's open turn (true), or queued as a new one
   * (false).
   */
  add(turn: Turn): boolean {
    const { windowMs } = this.options;
    const open = this.open.get(turn.channelId);
    if (
      windowMs > 0 &&
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
    if (windowMs > 0) this.open.set(turn.channelId, batch);
    else this.open.delete(turn.channelId);
    const startedNow = this.options.active.wait(turn.channelId, {
      askerId: turn.askerId,
      // Messages merged in later count too: the batch's turn is read when the ❌ comes.
      isOwnMessage: (messageId) => batch.turn.messages.some((message) => message.id === messageId),
      cancel: () => this.cancel(batch),
    });
    this.options.queue(
      turn.channelId,
      async () => {
        await batch.windowPassed;
        batch.started = true;
        startedNow();
        if (this.open.get(turn.channelId) === batch) this.open.delete(turn.channelId);
        await this.options.handle({ kind: batch.cancelled ? 'cancelled' : 'answer', turn: batch.turn });
      },
      turn.messages[0]?.id ?? '',
    );
    return false;
  }

  /** Ends every window now (the bot is stopping: nothing waits any longer). */
  flush(): void {
    for (const batch of this.open.values()) {
      this.options.timers.clearTimeout(batch.timer);
      batch.endWindow();
    }
  }

  /** Drops a batch that has not started: no more merging into it, its window ends now. */
  private cancel(batch: Batch): void {
    if (batch.started || batch.cancelled) return;
    batch.cancelled = true;
    if (this.open.get(batch.turn.channelId) === batch) this.open.delete(batch.turn.channelId);
    this.options.timers.clearTimeout(batch.timer);
    batch.endWindow();
    this.options.stopped(batch.turn);
  }

  private newBatch(turn: Turn): Batch {
    const { windowMs, timers } = this.options;
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
    if (windowMs > 0) batch.timer = timers.setTimeout(endWindow, windowMs);
    else endWindow();
    return batch;
  }

  private restartWindow(batch: Batch): void {
    this.options.timers.clearTimeout(batch.timer);
    batch.timer = this.options.timers.setTimeout(batch.endWindow, this.options.windowMs);
  }
}
