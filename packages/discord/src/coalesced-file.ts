import type { Logger } from '@macstats/core';
import { writePrivateFile } from '@macstats/core/internal';

/**
 * Writes a file the bot keeps whole after changes, coalesced: a burst of changes makes one or two
 * writes, each of the text `render` gives then, atomically and readable by the owner only. A write
 * that fails is logged with `failure` and tried again at the next change. Without a path nothing
 * is written.
 */
export class CoalescedFile {
  private writing: Promise<void> | undefined;
  private dirty = false;

  constructor(
    private readonly path: string | undefined,
    private readonly render: () => string,
    private readonly logger: Logger,
    private readonly failure: string,
  ) {}

  /** Notes a change: the file is written soon, with what `render` gives then. */
  save(): void {
    if (!this.path) return;
    this.dirty = true;
    this.writing ??= this.writeLoop(this.path).finally(() => {
      this.writing = undefined;
    });
  }

  /** Resolves once every change so far is on disk. */
  async flush(): Promise<void> {
    while (this.writing) await this.writing;
  }

  private async writeLoop(path: string): Promise<void> {
    while (this.dirty) {
      this.dirty = false;
      try {
        await writePrivateFile(path, this.render());
      } catch (error) {
        this.logger.warn({ path, err: error }, this.failure);
      }
    }
  }
}
