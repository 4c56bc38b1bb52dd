import type { Logger } from '@macstats/core';
import { parseSchedules } from './parse-schedules.js';
import type { Schedule } from './schedule.js';
import type { SchedulerErrorCode } from './scheduler-errors.js';
import type { ScheduleSource } from './scheduler-stores.js';
import type { SchedulerEvent } from './scheduler-types.js';

/**
 * The schedules as last read from their source: a read that fails or finds a file with no usable
 * entry keeps the last good schedules, and says so once per problem.
 */
export class ScheduleLoader {
  schedules: Schedule[] = [];
  errors: string[] = [];
  #lastText: string | undefined;

  constructor(
    private readonly options: {
      source: ScheduleSource;
      logger: Logger;
      emit: (event: SchedulerEvent) => void;
      fail: (code: SchedulerErrorCode, message: string, cause?: unknown) => void;
      /** Called after a read that changed the schedules (the scheduler plans its next runs). */
      changed: () => Promise<void>;
    },
  ) {}

  /** Reads the source; unless `force`, does nothing when its text is unchanged. */
  async load(force: boolean): Promise<void> {
    const { source, logger, emit, fail } = this.options;
    let text: string;
    try {
      text = (await source.read()) ?? '{"schedules":[]}';
    } catch (error) {
      const message = `Cannot read ${source.description} (${(error as Error).message}); keeping the last good schedules.`;
      this.errors = [message];
      fail('SCHEDULES_UNREADABLE', message, error);
      emit({
        type: 'schedules-reloaded',
        schedules: this.schedules.length,
        errors: this.errors,
        keptPrevious: true,
      });
      return;
    }
    if (text === this.#lastText && !force) return;
    this.#lastText = text;
    const parsed = parseSchedules(text);
    this.errors = parsed.errors;
    if (parsed.usable) this.schedules = parsed.schedules;
    for (const message of parsed.errors) {
      fail('SCHEDULES_INVALID', parsed.usable ? message : `${message} Keeping the last good schedules.`);
    }
    logger.info(
      { source: source.description, schedules: this.schedules.length, errors: parsed.errors.length },
      'schedules loaded',
    );
    emit({
      type: 'schedules-reloaded',
      schedules: this.schedules.length,
      errors: parsed.errors,
      keptPrevious: !parsed.usable,
    });
    await this.options.changed();
  }
}
