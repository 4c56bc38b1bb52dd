import { join } from 'node:path';
import type { Logger } from '@macstats/core';
import {
  createFileScheduleSource,
  type RunRecord,
  readRunHistory,
  type ScheduleSource,
  STATE_FILES,
} from '@macstats/scheduler';
import { type AppConfig, paths } from './app-config.js';

/** Where the CLI's `schedules` commands read and write: the file, or the shared table. */
export interface ScheduleStore {
  /** `schedules.json` by default; the `macstats_schedules` table with `DATABASE_URL`. */
  source: ScheduleSource;
  /** True with `DATABASE_URL`: the schedules live in PostgreSQL, shared by every host. */
  shared: boolean;
  /**
   * Replaces the shared schedules with a `schedules.json` text (`PostgresScheduleSource.import`);
   * undefined without a database. Rejects an unusable text with `SCHEDULES_FILE_INVALID`.
   */
  import: ((text: string) => Promise<{ schedules: number; errors: string[] }>) | undefined;
  /** The newest `limit` run records, newest last: `runs.jsonl`, or the database's history. */
  readHistory(limit: number): Promise<RunRecord[]>;
  close(): Promise<void>;
}

/**
 * Opens the schedules as `macstats start` runs them: `schedules.json` and `runs.jsonl` in
 * MACSTATS_HOME, or, with `DATABASE_URL`, the shared table and run history (connecting and
 * migrating as `start` does). Rejects with the store's one sentence when the database cannot be
 * reached, refuses the login, or holds a newer schema.
 */
export async function openScheduleStore(
  config: Pick<AppConfig, 'home' | 'databaseUrl'>,
  logger: Logger,
): Promise<ScheduleStore> {
  if (!config.databaseUrl) {
    const history = join(config.home, STATE_FILES.history);
    return {
      source: createFileScheduleSource(paths(config).schedules),
      shared: false,
      import: undefined,
      readHistory: (limit) => readRunHistory(history, limit),
      close: async () => {},
    };
  }
  // Loaded on demand: commands without a database do not pay for the client.
  const { connectPostgres } = await import('@macstats/store-postgres');
  const database = await connectPostgres({ url: config.databaseUrl, logger, maxConnections: 2 });
  const stores = database.schedulerStores();
  return {
    source: stores.source,
    shared: true,
    import: (text) => stores.source.import(text),
    readHistory: (limit) => stores.history.read(limit),
    close: () => database.close(),
  };
}
