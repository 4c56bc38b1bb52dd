import { type Logger, silentLogger } from '@macstats/core';
import { systemTimers, type Timers } from './timers.js';

/** How a status message reaches Discord. */
export interface StatusTransport {
  /** Posts the status message; resolves with its id. */
  create(text: string): Promise<string>;
  edit(id: string, text: string): Promise<void>;
}

/**
 * The one status message shown while an answer is made ("Fetching https://…"). The first
 * update posts it at once; later updates edit it at most once per `intervalMs`, and only the
 * latest text of a burst is written. Writes never overlap, and none happens after `finish()`.
 */
export class StatusMessage {
  private id: string | undefined;
  private shown: string | undefined;
  private pending: string | undefined;
  private lastWriteAt = Number.NEGATIVE_INFINITY;
  private timer: unknown;
  private writing: Promise<void> | undefined;
  private closed = false;

  constructor(
    private readonly transport: StatusTransport,
    private readonly intervalMs: number,
    private readonly timers: Timers = systemTimers,
    private readonly logger: Logger = silentLogger,
  ) {}

  /** The status message's id, waiting for it while it is being posted; undefined when none was. */
  async posted(): Promise<string | undefined> {
    while (this.id === undefined && this.writing) await this.writing;
    return this.id;
  }

  /**
   * Shows `text` as soon as the interval allows; a newer text replaces one still waiting. With
   * `create: false` the text only replaces one already shown or on its way (a minor step such as
   * "Thinking…" is not worth a message of its own).
   */
  update(text: string, options: { create?: boolean } = {}): void {
    if (this.closed) return;
    const posted = this.id !== undefined || this.writing !== undefined || this.pending !== undefined;
    if (options.create === false && !posted) return;
    this.pending = text;
    this.schedule();
  }

  /** Stops updates, waits for a write in flight, and resolves with the message id (if one was posted). */
  async finish(): Promise<string | undefined> {
    this.closed = true;
    if (this.timer !== undefined) this.timers.clearTimeout(this.timer);
    this.timer = undefined;
    // A write may finish and schedule another before `closed` is seen: wait until none is left.
    while (this.writing) await this.writing;
    return this.id;
  }

  private schedule(): void {
    if (this.writing || this.timer !== undefined || this.closed) return;
    const wait = this.lastWriteAt + this.intervalMs - this.timers.now();
    if (wait <= 0) this.write();
    else
      this.timer = this.timers.setTimeout(() => {
        this.timer = undefined;
        this.write();
      }, wait);
  }

  private write(): void {
    const text = this.pending;
    this.pending = undefined;
    if (this.closed || text === undefined || text === this.shown) return;
    this.lastWriteAt = this.timers.now();
    const id = this.id;
    const request =
      id === undefined
        ? this.transport.create(text).then((created) => this.remember(created))
        : this.transport.edit(id, text);
    this.writing = request
      .then(() => {
        this.shown = text;
      })
      .catch((error: unknown) => {
        this.logger.warn({ err: error }, 'status message could not be written');
      })
      .finally(() => {
        this.writing = undefined;
        if (this.pending !== undefined) this.schedule();
      });
  }

  private remember(id: string): void {
    this.id = id;
  }
}
