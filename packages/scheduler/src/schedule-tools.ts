import {
  type CallToParse,
  defineTool,
  MacstatsError,
  type ParseResult,
  type Tool,
  type ToolContext,
  type ToolResult,
} from '@macstats/core';
import { formatDuration, plural } from '@macstats/core/internal';
import { type Clock, systemClock } from './clock.js';
import { formatRunTimes } from './format.js';
import { nextRunTimes, scheduleZone } from './next-run-times.js';
import { parseSchedules } from './parse-schedules.js';
import type { Schedule } from './schedule.js';
import {
  makeScheduleId,
  parseScheduleCommand,
  resolveWhen,
  SCHEDULER_PARAMETERS,
  SCHEDULER_USAGE,
  type ScheduleCommand,
  scheduleCommandFromArguments,
} from './schedule-command.js';
import { createFileScheduleSource } from './schedule-source.js';
import { schedulerError } from './scheduler-errors.js';
import type { ScheduleSource } from './scheduler-stores.js';
import { validateEntry } from './validate-entry.js';
import { isValidTimezone, systemTimezone } from './zoned-time.js';

/** Options of {@link createScheduleTools}. Defaults are in `SCHEDULE_TOOLS_DEFAULTS`. */
export interface ScheduleToolsOptions {
  /** Path of `schedules.json` (created on the first add). Required unless `source` is given. */
  file?: string | undefined;
  /** Where schedules are kept, when not in `file`: the scheduler's shared source. */
  source?: ScheduleSource | undefined;
  /** Time source for "next runs" and `in 20 minutes`. Default: the system clock. */
  clock?: Pick<Clock, 'now'> | undefined;
  /** Zone for entries without `timezone`; must match the scheduler's. Default: the system's. */
  timezone?: string | undefined;
  /** The channel a new schedule replies to when the line names none (the bot maps the conversation to its channel). */
  replyTo?: ((context: ToolContext) => string | undefined) | undefined;
  /** Refuse cron schedules that fire more often than this. Default 60 000 (once a minute). */
  minIntervalMs?: number | undefined;
  /** Refuse adds beyond this many schedules in the file. Default 100. */
  maxSchedules?: number | undefined;
  /** Refuse longer tasks. Default 2 000 characters. */
  maxTaskLength?: number | undefined;
}

/** Defaults of {@link ScheduleToolsOptions}. */
export const SCHEDULE_TOOLS_DEFAULTS = {
  minIntervalMs: 60_000,
  maxSchedules: 100,
  maxTaskLength: 2_000,
} as const;

/**
 * The `SCHEDULER` tool, so a user can say "remind me every weekday at 9 to stretch" in chat.
 * `SCHEDULER: add <when> | <task>` validates the entry like the scheduler does, writes it
 * atomically without clobbering a concurrent edit, and answers with the next 3 run times in the
 * schedule's zone; `SCHEDULER: list` and `SCHEDULER: remove <id>` do what they say.
 * A running scheduler picks the change up from the file.
 *
 * @example
 * const tools = [...createScheduleTools({ file: join(home, 'schedules.json') }), fetchUrl];
 */
export function createScheduleTools(options: ScheduleToolsOptions): Tool[] {
  if (options.timezone !== undefined && !isValidTimezone(options.timezone)) {
    throw schedulerError('INVALID_OPTION', `timezone "${options.timezone}" is not an IANA time zone.`);
  }
  const settings = {
    minIntervalMs: options.minIntervalMs ?? SCHEDULE_TOOLS_DEFAULTS.minIntervalMs,
    maxSchedules: options.maxSchedules ?? SCHEDULE_TOOLS_DEFAULTS.maxSchedules,
    maxTaskLength: options.maxTaskLength ?? SCHEDULE_TOOLS_DEFAULTS.maxTaskLength,
  };
  if (options.file === undefined && options.source === undefined) {
    throw schedulerError('INVALID_OPTION', 'createScheduleTools needs a schedules `file` or a `source`.');
  }
  const source = options.source ?? createFileScheduleSource(options.file as string);
  const clock = options.clock ?? systemClock;
  const zoneOf = (schedule: Schedule) => scheduleZone(schedule, options.timezone);

  async function add(
    command: Extract<ScheduleCommand, { action: 'add' }>,
    context: ToolContext,
  ): Promise<ToolResult> {
    if (command.task.length > settings.maxTaskLength) {
      return refuse(`the task is longer than ${settings.maxTaskLength} characters`);
    }
    const now = clock.now();
    const timing = resolveWhen(command.when, now, command.timezone ?? options.timezone ?? systemTimezone());
    const channel = command.channel ?? options.replyTo?.(context);
    return source.edit((document): ToolResult => {
      if (document.schedules.length >= settings.maxSchedules) {
        return refuse(
          `there are already ${plural(document.schedules.length, 'schedule')} (the limit is ${settings.maxSchedules})`,
        );
      }
      const taken = new Set(
        document.schedules.map((entry) => (entry as { id?: unknown }).id).filter(isString),
      );
      if (command.id !== undefined && taken.has(command.id)) {
        return refuse(`the id "${command.id}" is taken; pick another or remove that schedule first`);
      }
      const entry: Record<string, unknown> = {
        id: command.id ?? makeScheduleId(command.task, taken),
        ...timing,
        task: command.task,
      };
      if (command.timezone !== undefined) entry.timezone = command.timezone;
      if (channel !== undefined) entry.reply_to_channel_id = channel;
      // Added after outside content was read (and approved): the schedule keeps what was in the
      // context, so its runs read the task as that content's words, not the user's.
      const labels = context.labels;
      if (labels && labels.outside.length > 0)
        entry.labels = { outside: labels.outside, private: labels.private, origins: labels.origins };
      const schedule = validateEntry(entry, document.schedules.length);
      if (typeof schedule === 'string') return refuse(schedule);
      const times = nextRunTimes(schedule, 3, new Date(now), { timezone: zoneOf(schedule) });
      if (times.length === 0) {
        return refuse(
          schedule.at !== undefined ? `${schedule.at} is in the past` : 'the cron expression never fires',
        );
      }
      const gap = Math.min(
        ...times.slice(1).map((time, index) => time.getTime() - (times[index]?.getTime() ?? 0)),
      );
      if (schedule.cron !== undefined && gap < settings.minIntervalMs) {
        return refuse(
          `it would run every ${formatDuration(gap)}; the minimum interval is ${formatDuration(settings.minIntervalMs)}`,
        );
      }
      document.schedules.push(entry);
      const kind = schedule.cron !== undefined ? `cron "${schedule.cron}"` : `once at ${schedule.at}`;
      return {
        text: `Added schedule "${schedule.id}" (${kind}, ${zoneOf(schedule)}). Next run${times.length > 1 ? 's' : ''}: ${formatRunTimes(times, zoneOf(schedule))}.`,
      };
    });
  }

  async function list(): Promise<ToolResult> {
    const { schedules, errors, usable } = parseSchedules((await source.read()) ?? '{"schedules":[]}');
    if (!usable) return refuse(`${errors[0] ?? ''} Fix ${source.description} first`, 'list');
    const now = new Date(clock.now());
    const lines = schedules.map((schedule) => {
      const zone = zoneOf(schedule);
      const next = nextRunTimes(schedule, 1, now, { timezone: zone });
      const timing = schedule.cron !== undefined ? `cron "${schedule.cron}"` : `at ${schedule.at}`;
      const when = next.length > 0 ? `next ${formatRunTimes(next, zone)}` : 'no further runs';
      return `- ${schedule.id}: ${timing} (${zone}), ${when}. Task: ${schedule.task}`;
    });
    const head = schedules.length === 0 ? 'No schedules.' : `${schedules.length} schedule(s):`;
    const problems =
      errors.length > 0 ? `\nProblems in the file:\n${errors.map((error) => `- ${error}`).join('\n')}` : '';
    return { text: [head, ...lines].join('\n') + problems };
  }

  async function remove(id: string): Promise<ToolResult> {
    return source.edit((document): ToolResult => {
      const index = document.schedules.findIndex((entry) => (entry as { id?: unknown }).id === id);
      if (index === -1) {
        const ids = document.schedules.map((entry) => (entry as { id?: unknown }).id).filter(isString);
        return refuse(
          `there is no schedule "${id}"${ids.length > 0 ? ` (there are: ${ids.join(', ')})` : ''}`,
          'remove',
        );
      }
      document.schedules.splice(index, 1);
      return { text: `Removed schedule "${id}".` };
    });
  }

  const tool = defineTool<RunnableCommand>({
    name: 'SCHEDULER',
    description:
      'Schedules a task to run later or repeatedly (cron in local time, or once at a date-time), lists schedules, removes one.',
    usage: SCHEDULER_USAGE,
    parameters: SCHEDULER_PARAMETERS,
    parse: parseCall,
    // The list is the user's private data; an add or a remove changes what later runs do.
    labels: ({ action }) => (action === 'list' ? { private: true } : { private: true, persists: true }),
    async run(command, context) {
      try {
        if (command.action === 'list') return await list();
        if (command.action === 'remove') return await remove(command.id);
        return await add(command, context);
      } catch (error) {
        if (MacstatsError.isInstance(error)) return { text: error.message, isError: true };
        throw error;
      }
    },
  });
  return [tool];
}

/** A SCHEDULER command that can run. */
type RunnableCommand = Exclude<ScheduleCommand, { action: 'invalid' }>;

/** A call's command: from the arguments object when the model wrote one, else from the text. */
function parseCall(call: CallToParse): ParseResult<RunnableCommand> {
  const command = call.arguments
    ? scheduleCommandFromArguments(call.arguments)
    : parseScheduleCommand(call.argument);
  return command.action === 'invalid' ? { problem: command.reason } : { input: command };
}

function refuse(reason: string, action = 'add'): ToolResult {
  return { text: `Cannot ${action} the schedule: ${reason.replace(/\.$/, '')}.`, isError: true };
}

function isString(value: unknown): value is string {
  return typeof value === 'string';
}
