import { join } from 'node:path';
import {
  ARCHIVE_FOLDER,
  createMessageArchive,
  type Logger,
  type MessageArchive,
  type Tool,
  type ToolContext,
} from '@macstats/core';
import { createMetricsCollector, type MetricsCollector } from '@macstats/metrics';
import type { ScheduleSource } from '@macstats/scheduler';
import { createTaskStore, type TaskStore } from '@macstats/tasks';
import type { NoteBackend, NoteStore } from '@macstats/tools-memory';
import { buildConfiguredTools, type OmittedTool, type ToolSettings } from './configured-tools.js';
import { openNoteStore } from './note-store.js';
import { type ServedTools, selectServedTools } from './served-tools.js';
import { createStateTools } from './state-tools.js';
import { offeredTo, RUN_JS_UNAVAILABLE, type ToolUse } from './tool-catalog.js';

/** Options of {@link assembleTools}. */
export interface AssembleToolsOptions {
  logger: Logger;
  /** `PATH`, where a Chromium for BROWSER is looked for when `CHROMIUM_PATH` is unset. */
  path: string | undefined;
  /** Where SCHEDULER changes the schedules (DATABASE_URL: the shared table); default `schedules.json`. */
  scheduleSource?: ScheduleSource | undefined;
  /** Where MEMORY keeps its notes (DATABASE_URL: the database); default the files in `memory/`. */
  noteBackend?: NoteBackend | undefined;
  /** Where TASK keeps tasks; default the files in `tasks/` (the runner of `macstats start` reads them). */
  taskStore?: TaskStore | undefined;
  /** Where every conversation's messages are kept (DATABASE_URL: the database); default the files in `sessions/archive/`. */
  messageArchive?: MessageArchive | undefined;
  /** The channel a schedule added in a conversation replies to. */
  replyTo?: ((context: ToolContext) => string | undefined) | undefined;
}

/** Every tool an app without a page offers, what was left out and why, and what to close. */
export interface AssembledTools {
  /** The chat's tools: every one built. */
  tools: Tool[];
  omitted: OmittedTool[];
  /** The tools `use` is offered (see the catalog). */
  offered(use: ToolUse): Tool[];
  /** The tools `macstats mcp` serves: the `mcp` use's, or only those `MCP_SERVE_TOOLS` names. */
  served(wanted: readonly string[]): ServedTools;
  collector: MetricsCollector;
  /** The MCP servers behind the MCP tool, when one is configured. */
  mcp: Awaited<ReturnType<typeof buildConfiguredTools>>['mcp'];
  /** The MEMORY tool's notes, read into each answer's context. */
  notes: NoteStore;
  /** Every conversation's messages: give it to the agent's memory, so MEMORY searches what recall reads. */
  archive: MessageArchive;
  /** MCP problems worth a line each (a server that did not list its tools, a bad mcp.json entry). */
  problems: string[];
  close(): Promise<void>;
}

/**
 * The bot's tools (`macstats start`, `ask`, `tools`, `mcp`): those the settings build, then
 * METRICS, SCHEDULER, MEMORY and TASK. RUN_JS is never built here: the agent answers it with
 * {@link RUN_JS_UNAVAILABLE}.
 *
 * @example
 * // The app reads PATH from the environment and passes it in.
 * const assembled = await assembleTools(config, { logger, path: searchPath });
 * createAgent({ model, tools: assembled.offered('chat') });
 */
export async function assembleTools(
  settings: ToolSettings,
  options: AssembleToolsOptions,
): Promise<AssembledTools> {
  const { logger } = options;
  const configured = await buildConfiguredTools(settings, options);
  const tools = [...configured.tools];
  const collector = createMetricsCollector({ logger });
  // The bot never writes the global scope: only the dashboard's user, who owns the machine, may.
  const notes = openNoteStore({
    home: settings.home,
    backend: options.noteBackend,
    logger,
    toolNames: () => tools.map((tool) => tool.name),
  });
  const archive =
    options.messageArchive ??
    createMessageArchive({ dir: join(settings.home, 'sessions', ARCHIVE_FOLDER), logger });
  tools.push(
    ...createStateTools({
      archive,
      logger,
      collector,
      schedules: options.scheduleSource ?? { file: join(settings.home, 'schedules.json') },
      replyTo: options.replyTo,
      notes,
      tasks: options.taskStore ?? createTaskStore({ dir: join(settings.home, 'tasks') }),
    }),
  );
  return {
    tools,
    omitted: [
      ...configured.omitted,
      {
        name: 'RUN_JS',
        reason: `JavaScript runs only in the desktop page; the model is told "${RUN_JS_UNAVAILABLE}"`,
      },
    ],
    offered: (use) => offeredTo(use, tools),
    served: (wanted) => selectServedTools(tools, wanted),
    collector,
    mcp: configured.mcp,
    notes,
    archive,
    problems: configured.problems,
    async close() {
      await Promise.allSettled([collector.stop(), configured.close()]);
    },
  };
}
