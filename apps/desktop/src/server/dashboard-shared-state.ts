import type { MemoryStore, MessageArchive } from '@macstats/core';
import type {
  LeaderLock,
  RunHistoryStore,
  RunRecord,
  ScheduleSource,
  ScheduleStateStore,
} from '@macstats/scheduler';
import type { TaskStore } from '@macstats/tasks';

/**
 * State shared with other macstats hosts through one database (`DATABASE_URL`): what
 * `@macstats/store-postgres` gives as `database.schedulerStores()` and `database.memoryStore()`.
 */
export interface DashboardSharedState {
  /** The scheduler's lease, state, run history and schedules: this dashboard leads or follows. */
  scheduler: {
    lock: LeaderLock;
    stateStore: ScheduleStateStore;
    history: RunHistoryStore & { read(limit?: number): Promise<RunRecord[]> };
    source: ScheduleSource;
    lockRetryMs?: number;
  };
  /** Conversation memory: a chat continues with the same memory as on the other hosts. */
  memoryStore: MemoryStore;
  /** Every conversation's messages (`database.messageArchive()`); default the home's files. */
  messageArchive?: MessageArchive;
  /**
   * Durable tasks (`database.taskStore()`): the Tasks view, the chat's TASK and the runner use
   * the database's, each step run by the host holding the task's lease. Default: the home's files.
   */
  tasks?: TaskStore;
  /** How often the Tasks view reads the database's tasks for other hosts' changes; default 5 s. */
  tasksLookMs?: number;
}
