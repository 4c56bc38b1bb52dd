import { dirname, join } from 'node:path';
import { type SchedulerSettings, STATE_FILES } from './defaults.js';
import { ProcessLock } from './process-lock.js';
import { RunHistory } from './run-history.js';
import { createFileScheduleSource } from './schedule-source.js';
import { schedulerError } from './scheduler-errors.js';
import type { SchedulerOptions } from './scheduler-types.js';
import { StateStore } from './state-store.js';

/**
 * Where a scheduler keeps what it needs: the stores the options give, else files beside the
 * schedules file (or in `stateDir`). Without a folder, everything must come as a store.
 */
export function schedulerStorage(options: SchedulerOptions, settings: SchedulerSettings) {
  if (options.file === undefined && options.source === undefined) {
    throw schedulerError('INVALID_OPTION', 'createScheduler needs a schedules `file` or a `source`.');
  }
  const file = options.file;
  // Without a folder (everything shared through the stores given), nothing is written locally.
  const stateDir = options.stateDir ?? (file === undefined ? undefined : dirname(file));
  const localPath = (name: string) => {
    if (stateDir === undefined) {
      throw schedulerError(
        'INVALID_OPTION',
        `createScheduler needs a \`stateDir\` for ${name}, or a store for it.`,
      );
    }
    return join(stateDir, name);
  };
  return {
    file,
    stateDir,
    lock: options.lock ?? new ProcessLock(localPath(STATE_FILES.lock)),
    history: options.history ?? new RunHistory(localPath(STATE_FILES.history), settings.maxHistoryBytes),
    store: options.stateStore ?? new StateStore(localPath(STATE_FILES.state)),
    source: options.source ?? createFileScheduleSource(file as string),
  };
}
