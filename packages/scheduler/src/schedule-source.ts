import { readFile } from 'node:fs/promises';
import { editSchedulesFile } from './edit-schedules-file.js';
import type { ScheduleSource } from './scheduler-stores.js';

/** The default {@link ScheduleSource}: a `schedules.json` file, edited atomically. */
export function createFileScheduleSource(file: string): ScheduleSource {
  return {
    description: file,
    async read() {
      try {
        return await readFile(file, 'utf8');
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
        throw error;
      }
    },
    edit: (change) => editSchedulesFile(file, change),
  };
}
