import { MacstatsError } from '@macstats/core';
import {
  type LockHolder,
  nextRunTimes,
  parseSchedules,
  type RunRecord,
  type Schedule,
  type Scheduler,
  type SchedulerEvent,
  type ScheduleSource,
} from '@macstats/scheduler';
import type { SchedulesAnswer } from '../shared/schedule-types.js';
import { HttpError, isServerAway, readJsonBody, sendJson } from './http-helpers.js';
import { scheduleRunRoute } from './schedule-run-route.js';
import type { DashboardCore, DashboardFeature } from './start-dashboard.js';

/** Options of {@link createSchedulesFeature}. */
export interface SchedulesFeatureOptions {
  /**
   * Where the schedules are kept and edited: the scheduler's own source, `schedules.json`
   * (`createFileScheduleSource`) or the shared table with `DATABASE_URL`.
   */
  source: ScheduleSource;
  /** The newest `limit` run records, newest last: `runs.jsonl`, or the database's history. */
  readHistory(limit: number): Promise<RunRecord[]>;
  scheduler: Scheduler;
  /** Zone for entries without `timezone` (the scheduler's). Default: the system's. */
  timezone?: string;
  /** Longest task accepted. Default 2000 characters. */
  maxTaskChars?: number;
}

/** Defaults of {@link SchedulesFeatureOptions}. */
export const SCHEDULES_DEFAULTS = { maxTaskChars: 2000, nextRuns: 3, historyRuns: 30 } as const;

const FIELDS = [
  'id',
  'task',
  'cron',
  'at',
  'timezone',
  'reply_to_channel_id',
  'model',
  'prompt',
  'agent',
] as const;

/**
 * Schedules in the page: the list with next runs and run history; add, edit and remove, each
 * written through the scheduler's `ScheduleSource` (`schedules.json` atomically, or the shared
 * table in one transaction; never clobbering a concurrent edit) and picked up by the running
 * scheduler at once; and run now.
 */
export function createSchedulesFeature(
  core: DashboardCore,
  options: SchedulesFeatureOptions,
): DashboardFeature & { onSchedulerEvent(event: SchedulerEvent): void } {
  const { scheduler, source } = options;
  const maxTaskChars = options.maxTaskChars ?? SCHEDULES_DEFAULTS.maxTaskChars;
  const zoneOptions = options.timezone === undefined ? {} : { timezone: options.timezone };
  let lockHolder: LockHolder | undefined;

  async function edit(change: (entries: unknown[]) => void): Promise<void> {
    try {
      await source.edit((document) => change(document.schedules));
    } catch (error) {
      // The table or file was not usable as it is (409); a database away is the caller's 503.
      if (MacstatsError.isInstance(error) && !isServerAway(error)) throw new HttpError(409, error.message);
      throw error;
    }
    await scheduler.reload();
    core.hub.broadcast('schedules', { type: 'edited' });
  }

  async function overview(): Promise<SchedulesAnswer> {
    const upcoming = new Map(scheduler.dryRun(SCHEDULES_DEFAULTS.nextRuns).map((item) => [item.id, item]));
    const history = await options.readHistory(SCHEDULES_DEFAULTS.historyRuns);
    const leader = scheduler.isLeader;
    return {
      // Where they are kept, for the page: the file's path or the table.
      file: source.description,
      leader,
      statusText: leader
        ? 'This dashboard runs the schedules.'
        : lockHolder
          ? `Another macstats process (pid ${lockHolder.pid} on ${lockHolder.hostname}) runs the schedules; this page shows and edits them.`
          : 'Another macstats process runs the schedules; this page shows and edits them.',
      schedules: scheduler.list().map((status) => ({
        schedule: status.schedule,
        timezone: status.timezone,
        nextRuns: (upcoming.get(status.schedule.id)?.times ?? []).map((time) => time.toISOString()),
        running: status.running,
        done: status.done,
        ...(status.lastRun
          ? {
              lastRun: {
                startedAt: status.lastRun.startedAt.toISOString(),
                durationMs: status.lastRun.durationMs,
                outcome: status.lastRun.outcome,
                manual: status.lastRun.manual === true,
              },
            }
          : {}),
      })),
      errors: scheduler.errors(),
      history: history.reverse(),
    };
  }

  return {
    onSchedulerEvent(event) {
      if (event.type === 'lock-waiting') lockHolder = event.holder;
      if (event.type === 'lock-acquired') lockHolder = undefined;
      if (event.type !== 'error') core.hub.broadcast('schedules', { type: event.type });
    },
    routes: [
      {
        method: 'GET',
        path: /^\/api\/schedules$/,
        kind: 'read',
        async handle({ response }) {
          sendJson(response, 200, await overview());
        },
      },
      {
        method: 'POST',
        path: /^\/api\/schedules\/preview$/,
        kind: 'write',
        async handle({ request, response }) {
          const schedule = entryFrom(await readJsonBody(request), maxTaskChars);
          const times = nextRunTimes(schedule, SCHEDULES_DEFAULTS.nextRuns, new Date(), zoneOptions);
          const timezone =
            schedule.timezone ?? options.timezone ?? Intl.DateTimeFormat().resolvedOptions().timeZone;
          sendJson(response, 200, { timezone, nextRuns: times.map((time) => time.toISOString()) });
        },
      },
      {
        method: 'POST',
        path: /^\/api\/schedules$/,
        kind: 'write',
        async handle({ request, response }) {
          const schedule = entryFrom(await readJsonBody(request), maxTaskChars);
          await edit((entries) => {
            if (entries.some((entry) => idOf(entry) === schedule.id)) {
              throw new HttpError(
                409,
                `A schedule named "${schedule.id}" exists already: choose another name.`,
              );
            }
            entries.push(schedule);
          });
          sendJson(response, 201, { schedule });
        },
      },
      {
        method: 'PUT',
        path: /^\/api\/schedules\/([^/]+)$/,
        kind: 'write',
        async handle({ request, response, params }) {
          const id = params[0] ?? '';
          const body = await readJsonBody(request);
          const schedule = entryFrom(body, maxTaskChars);
          const sent = (body['schedule'] ?? {}) as Record<string, unknown>;
          await edit((entries) => {
            const index = entries.findIndex((entry) => idOf(entry) === id);
            if (index === -1) throw new HttpError(404, `There is no schedule named "${id}".`);
            keepUnsent(schedule, entries[index] as Record<string, unknown>, sent);
            if (schedule.id !== id && entries.some((entry) => idOf(entry) === schedule.id)) {
              throw new HttpError(
                409,
                `A schedule named "${schedule.id}" exists already: choose another name.`,
              );
            }
            entries[index] = schedule;
          });
          sendJson(response, 200, { schedule });
        },
      },
      scheduleRunRoute(scheduler, core.logger),
      {
        method: 'DELETE',
        path: /^\/api\/schedules\/([^/]+)$/,
        kind: 'write',
        async handle({ response, params }) {
          const id = params[0] ?? '';
          await edit((entries) => {
            const index = entries.findIndex((entry) => idOf(entry) === id);
            if (index === -1) throw new HttpError(404, `There is no schedule named "${id}".`);
            entries.splice(index, 1);
          });
          sendJson(response, 200, { removed: id });
        },
      },
    ],
  };
}

/** Turns the body's `schedule` into a clean entry, or answers 400 with the validator's sentence. */
function entryFrom(body: Record<string, unknown>, maxTaskChars: number): Schedule {
  const raw = body['schedule'];
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) {
    throw new HttpError(
      400,
      'Send the schedule as an object: {"schedule": {"id": …, "task": …, "cron": …}}.',
    );
  }
  const entry: Record<string, string> = {};
  for (const name of FIELDS) {
    const value = (raw as Record<string, unknown>)[name];
    if (value === undefined || value === null || value === '') continue;
    if (typeof value !== 'string') throw new HttpError(400, `The field "${name}" must be text.`);
    entry[name] = value.trim();
  }
  if ((entry['task'] ?? '').length > maxTaskChars) {
    throw new HttpError(400, `The task is longer than ${maxTaskChars} characters.`);
  }
  const parsed = parseSchedules(JSON.stringify({ schedules: [entry] }));
  const [schedule] = parsed.schedules;
  if (!schedule) throw new HttpError(400, parsed.errors[0] ?? 'The schedule is not valid.');
  return schedule;
}

/** The id of a raw entry of the document, if it has one. */
function idOf(entry: unknown): unknown {
  return typeof entry === 'object' && entry !== null ? (entry as { id?: unknown }).id : undefined;
}

/**
 * What an edit keeps of the entry `before` it: the page's form has no model, prompt or agent, so
 * an edit that does not send them keeps them; the labels of what the schedule came from stay with
 * it always (an edit never launders them).
 */
function keepUnsent(
  schedule: Schedule,
  before: Record<string, unknown>,
  sent: Record<string, unknown>,
): void {
  for (const key of ['model', 'prompt', 'agent'] as const)
    if (!(key in sent) && typeof before[key] === 'string') schedule[key] = before[key];
  if (typeof before['labels'] === 'object' && before['labels'] !== null)
    schedule.labels = before['labels'] as NonNullable<Schedule['labels']>;
}
