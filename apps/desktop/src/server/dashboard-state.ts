import { join } from 'node:path';
import { createStateTools, type NoteStore, openNoteStore } from '@macstats/app-runtime';
import {
  ARCHIVE_FOLDER,
  createMessageArchive,
  type Logger,
  type MessageArchive,
  type Tool,
} from '@macstats/core';
import { createMetricsCollector, type MetricsCollector } from '@macstats/metrics';
import {
  createFileScheduleSource,
  type RunRecord,
  readRunHistory,
  type ScheduleSource,
  STATE_FILES,
} from '@macstats/scheduler';
import { createTaskStore, type TaskStore } from '@macstats/tasks';
import type { DashboardOptions } from './dashboard-options.js';

/** What the dashboard keeps: its stores, its collector and every tool but the page's RUN_JS. */
export interface DashboardState {
  logger: Logger;
  schedulesFile: string;
  sessionsDir: string;
  /** One code path for edits: the SCHEDULER tool and the page change the schedules through this. */
  scheduleSource: ScheduleSource;
  readHistory(limit: number): Promise<RunRecord[]>;
  /** One archive for recall, MEMORY's search, and the messages a page forgets. */
  archive: MessageArchive;
  /** The chat agent's memory: the database's, or the files under `sessions/`. */
  memory:
    | { store: NonNullable<DashboardOptions['shared']>['memoryStore']; archive: MessageArchive }
    | { dir: string; archive: MessageArchive };
  collector: MetricsCollector;
  /** True when the collector was made here, so closing stops it. */
  ownCollector: boolean;
  /** MEMORY's notes: the Notes view, the MEMORY tool and the chat's context read and write them. */
  notes: NoteStore;
  /** The chat's tool names, once the server made them: a note that calls one of them is refused. */
  setToolNames(names: readonly string[]): void;
  /** `$MACSTATS_HOME/tasks`, or the database's: the chat's TASK adds to it, the Tasks view reads it. */
  taskStore: TaskStore;
  /** The settings' tools and the state tools (METRICS, SCHEDULER, MEMORY, TASK); RUN_JS is the page's. */
  tools: Tool[];
}

/** The dashboard's stores and tools, from its options: files in `home`, or the shared database's. */
export function openDashboardState(options: DashboardOptions, logger: Logger): DashboardState {
  const { home, shared } = options;
  const schedulesFile = join(home, 'schedules.json');
  const sessionsDir = join(home, 'sessions');
  const scheduleSource = shared?.scheduler.source ?? createFileScheduleSource(schedulesFile);
  const archive =
    shared?.messageArchive ?? createMessageArchive({ dir: join(sessionsDir, ARCHIVE_FOLDER), logger });
  const ownCollector = options.collector === undefined;
  const collector = options.collector ?? createMetricsCollector({ topProcesses: 10, logger });
  let toolNames: readonly string[] = [];
  const notes = openNoteStore({ home, backend: options.noteBackend, logger, toolNames: () => toolNames });
  const taskStore = shared?.tasks ?? createTaskStore({ dir: join(home, 'tasks') });
  const tools = [
    ...(options.tools ?? []),
    // The dashboard's user owns the machine: only here may the global notes be written.
    ...createStateTools({
      logger,
      collector,
      schedules: scheduleSource,
      notes,
      archive,
      canWriteGlobal: true,
      tasks: taskStore,
    }),
  ];
  return {
    logger,
    schedulesFile,
    sessionsDir,
    scheduleSource,
    readHistory: (limit) =>
      shared ? shared.scheduler.history.read(limit) : readRunHistory(join(home, STATE_FILES.history), limit),
    archive,
    memory: shared ? { store: shared.memoryStore, archive } : { dir: sessionsDir, archive },
    collector,
    ownCollector,
    notes,
    setToolNames: (names) => {
      toolNames = names;
    },
    taskStore,
    tools,
  };
}
