import type { NoteBackend } from '@macstats/app-runtime';
import type { Logger, MemoryStore, MessageArchive, TokenLedger } from '@macstats/core';
import type { ScheduleSource } from '@macstats/scheduler';
import type { TaskStore } from '@macstats/tasks';
import type { AppConfig } from './app-config.js';

/** What `ask` and `mcp` share through `DATABASE_URL`, as `createRuntime` and `assembleTools` take it. */
export interface SharedState {
  /** The shared table the SCHEDULER tool edits; undefined: `schedules.json`. */
  scheduleSource: ScheduleSource | undefined;
  /** Conversation memory shared by every host; undefined: files under `sessions/`. */
  memoryStore: MemoryStore | undefined;
  /** Every conversation's messages, for every host; undefined: files under `sessions/archive/`. */
  messageArchive: MessageArchive | undefined;
  /** Where MEMORY keeps its notes, shared by every host; undefined: files under `memory/`. */
  noteBackend: NoteBackend | undefined;
  /** Where the daily token budgets are counted for every host; undefined: `token-budget.json`. */
  tokenLedger: TokenLedger | undefined;
  /** Where the chat's TASK adds tasks, shared by every host; undefined: files under `tasks/`. */
  taskStore: TaskStore | undefined;
  /** Closes the database's connections (nothing to do without one). */
  close(): Promise<void>;
}

/**
 * With `DATABASE_URL`, connects (and migrates) as `macstats start` does, so a command's SCHEDULER
 * tool, conversation memory and MEMORY notes work on the shared database; without it, nothing is shared.
 * Rejects with the store's one sentence when the database cannot be reached or used.
 */
export async function connectSharedState(
  config: Pick<AppConfig, 'databaseUrl'>,
  logger: Logger,
): Promise<SharedState> {
  if (!config.databaseUrl) {
    return {
      scheduleSource: undefined,
      memoryStore: undefined,
      messageArchive: undefined,
      noteBackend: undefined,
      tokenLedger: undefined,
      taskStore: undefined,
      close: async () => {},
    };
  }
  // Loaded on demand: commands without a database do not pay for the client.
  const { connectPostgres } = await import('@macstats/store-postgres');
  const database = await connectPostgres({ url: config.databaseUrl, logger, maxConnections: 2 });
  return {
    scheduleSource: database.schedulerStores().source,
    memoryStore: database.memoryStore(),
    messageArchive: database.messageArchive(),
    noteBackend: database.noteBackend(),
    tokenLedger: database.tokenLedger(),
    taskStore: database.taskStore(),
    close: () => database.close(),
  };
}
