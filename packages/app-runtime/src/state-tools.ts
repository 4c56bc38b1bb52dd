import type { Logger, MessageArchive, Tool, ToolContext } from '@macstats/core';
import { createMetricsTool, type MetricsCollector } from '@macstats/metrics';
import { createScheduleTools, type ScheduleSource } from '@macstats/scheduler';
import { createTaskTool, type TaskStore } from '@macstats/tasks';
import { createMemoryTool, type NoteStore } from '@macstats/tools-memory';
import { metricsSourceWithRates } from './metrics-source.js';

/** Options of {@link createStateTools}. */
export interface StateToolsOptions {
  logger: Logger;
  /** METRICS reads it; a collector that is not running answers from two fresh readings. */
  collector: MetricsCollector;
  /** Where SCHEDULER changes the schedules: the scheduler's source (a file or the shared table). */
  schedules: ScheduleSource | { file: string };
  /** The channel a schedule added in a conversation replies to (the bot: the Discord channel). */
  replyTo?: ((context: ToolContext) => string | undefined) | undefined;
  /** MEMORY's notes. */
  notes: NoteStore;
  /** The conversations' message archive: MEMORY's search then finds earlier messages too. */
  archive?: MessageArchive | undefined;
  /**
   * Whether MEMORY may write the global notes: only the dashboard's user, who owns the machine,
   * may. Default false.
   */
  canWriteGlobal?: boolean | undefined;
  /**
   * Where TASK adds, lists and shows tasks (`$MACSTATS_HOME/tasks`); a task a chat answer adds
   * belongs to the asker and reports to a Discord answer's channel. Without it, no TASK.
   */
  tasks?: TaskStore | undefined;
}

/**
 * The tools built from the app's own state rather than a setting, as the catalog says: METRICS
 * (the metrics collector), SCHEDULER (the schedules), MEMORY (the notes) and TASK (the tasks, when
 * a store is given), in that order.
 */
export function createStateTools(options: StateToolsOptions): Tool[] {
  const { logger, schedules } = options;
  return [
    createMetricsTool(metricsSourceWithRates(options.collector)),
    ...createScheduleTools({
      ...('file' in schedules ? { file: schedules.file } : { source: schedules }),
      ...(options.replyTo ? { replyTo: options.replyTo } : {}),
    }),
    createMemoryTool({
      store: options.notes,
      logger,
      ...(options.archive ? { archive: options.archive } : {}),
      ...(options.canWriteGlobal ? { canWriteGlobal: true } : {}),
    }),
    ...(options.tasks ? [createTaskTool({ store: options.tasks })] : []),
  ];
}
