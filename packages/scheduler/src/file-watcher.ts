import { type FSWatcher, watch } from 'node:fs';
import { basename, dirname } from 'node:path';
import type { Logger } from '@macstats/core';
import type { Clock } from './clock.js';

/**
 * Calls `onChange` when a file may have changed: from `fs.watch` on its folder (which sees
 * editors that replace the file by renaming), and every `intervalMs` regardless, for file
 * systems where watching misses events. The caller compares contents; spurious calls are fine.
 */
export class FileWatcher {
  readonly #file: string;
  readonly #clock: Clock;
  readonly #intervalMs: number;
  readonly #useWatch: boolean;
  readonly #logger: Logger;
  readonly #onChange: () => void;
  #watcher: FSWatcher | undefined;
  #timer: unknown;
  #running = false;

  constructor(options: {
    file: string;
    clock: Clock;
    intervalMs: number;
    watch: boolean;
    logger: Logger;
    onChange: () => void;
  }) {
    this.#file = options.file;
    this.#clock = options.clock;
    this.#intervalMs = options.intervalMs;
    this.#useWatch = options.watch;
    this.#logger = options.logger;
    this.#onChange = options.onChange;
  }

  start(): void {
    if (this.#running) return;
    this.#running = true;
    if (this.#useWatch) {
      const name = basename(this.#file);
      try {
        this.#watcher = watch(dirname(this.#file), { persistent: false }, (_event, changed) => {
          // Some platforms omit the name; then any change in the folder counts.
          if (changed === null || changed === name) this.#onChange();
        });
        this.#watcher.on('error', (error) => {
          this.#logger.warn(
            { err: error, file: this.#file },
            'file watch failed; relying on periodic checks',
          );
          this.#watcher?.close();
          this.#watcher = undefined;
        });
      } catch (error) {
        this.#logger.warn({ err: error, file: this.#file }, 'cannot watch; relying on periodic checks');
      }
    }
    this.#arm();
  }

  stop(): void {
    this.#running = false;
    this.#watcher?.close();
    this.#watcher = undefined;
    this.#clock.clearTimeout(this.#timer);
  }

  #arm(): void {
    this.#timer = this.#clock.setTimeout(() => {
      if (!this.#running) return;
      this.#onChange();
      this.#arm();
    }, this.#intervalMs);
  }
}
