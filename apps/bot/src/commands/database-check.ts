import type { Logger } from '@macstats/core';
import { parseSchedules } from '@macstats/scheduler';
import type { AppConfig } from '../app-config.js';
import { openScheduleStore } from '../schedule-store.js';
import type { Check } from './doctor-checks.js';

/**
 * `macstats doctor` with `DATABASE_URL`: the database is reachable, migrated and not newer than
 * this code, and the schedules in its table are valid (instead of the `schedules.json` check).
 */
export async function checkSharedSchedules(
  config: Pick<AppConfig, 'home' | 'databaseUrl'>,
  logger: Logger,
): Promise<Check[]> {
  let store: Awaited<ReturnType<typeof openScheduleStore>>;
  try {
    store = await openScheduleStore(config, logger);
  } catch (error) {
    // The store's sentence already names the fix.
    return [{ status: 'fail', text: `DATABASE_URL: ${(error as Error).message}` }];
  }
  try {
    const where = store.source.description;
    const reachable: Check = {
      status: 'ok',
      text: `DATABASE_URL: PostgreSQL is reachable and its schema current`,
    };
    const text = await store.source.read();
    if (text === undefined)
      return [
        reachable,
        {
          status: 'skip',
          text: `schedules: none yet in ${where} (load some with \`macstats schedules import <file>\`)`,
        },
      ];
    const { schedules, errors } = parseSchedules(text);
    if (errors.length === 0)
      return [
        reachable,
        {
          status: 'ok',
          text: `${where} are valid (${schedules.length} ${schedules.length === 1 ? 'schedule' : 'schedules'})`,
        },
      ];
    return [
      reachable,
      ...errors.map((error) => ({
        status: 'fail' as const,
        text: `${where}: ${error}`,
        fix: '`macstats schedules export <file>`, correct the file, then `macstats schedules import <file>`',
      })),
    ];
  } finally {
    await store.close();
  }
}
