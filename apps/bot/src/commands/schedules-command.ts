import { formatRunTimes, nextRunTimes, parseSchedules, type RunRecord } from '@macstats/scheduler';
import type { AppConfig } from '../app-config.js';
import { type CommandIo, EXIT } from '../command-io.js';
import { openScheduleStore, type ScheduleStore } from '../schedule-store.js';

/** How many of the newest run records `macstats schedules` reads to find each schedule's last run. */
export const SCHEDULES_HISTORY_SCAN = 1000;

/**
 * `macstats schedules`: every schedule with its next run times and its last run, from
 * `schedules.json` or, with `DATABASE_URL`, the shared table. Exit 3 when the schedules have
 * errors; a database that cannot be reached rejects with its one sentence (exit 1 in the CLI).
 */
export async function schedulesCommand(
  config: AppConfig,
  io: CommandIo,
  options: { count: number; now?: Date },
): Promise<number> {
  const store = await openScheduleStore(config, io.logger);
  try {
    return await listSchedules(store, io, options);
  } finally {
    await store.close();
  }
}

async function listSchedules(
  store: ScheduleStore,
  io: CommandIo,
  options: { count: number; now?: Date },
): Promise<number> {
  const where = store.source.description;
  let text: string | undefined;
  try {
    text = await store.source.read();
  } catch (error) {
    // A database failure is the command's failure (exit 1); an unreadable file is configuration.
    if (store.shared) throw error;
    io.err(`Could not read ${where}: ${(error as Error).message}`);
    return EXIT.config;
  }
  if (text === undefined) {
    io.out(
      store.shared
        ? `No schedules: ${where} is empty; load a schedules.json with \`macstats schedules import <file>\`.`
        : `No schedules: ${where} does not exist.`,
    );
    return EXIT.ok;
  }
  if (store.shared) io.out(`Schedules in ${where}:`);
  const { schedules, errors } = parseSchedules(text);
  const lastRuns = lastRunById(await store.readHistory(SCHEDULES_HISTORY_SCAN));
  const from = options.now ?? new Date();
  const localZone = Intl.DateTimeFormat().resolvedOptions().timeZone;
  for (const schedule of schedules) {
    const when = schedule.cron ? `cron "${schedule.cron}"` : `at ${schedule.at}`;
    const zone = schedule.timezone ?? localZone;
    const channel = schedule.reply_to_channel_id ? ` → channel ${schedule.reply_to_channel_id}` : '';
    io.out(`${schedule.id}: ${when} in ${zone}${channel} — ${schedule.task}`);
    const times = nextRunTimes(schedule, options.count, from);
    if (times.length === 0) io.out('    no run to come');
    for (const time of times) io.out(`    ${formatRunTimes([time], zone)}  ${time.toISOString()}`);
    const last = lastRuns.get(schedule.id);
    if (last) io.out(`    last run ${describeRun(last, zone)}`);
  }
  if (schedules.length === 0 && errors.length === 0)
    io.out(store.shared ? `No schedules in ${where}.` : 'No schedules in the file.');
  for (const error of errors) io.err(`error in ${where}: ${error}`);
  return errors.length > 0 ? EXIT.config : EXIT.ok;
}

/** The newest record of each schedule (records come oldest first). */
function lastRunById(records: readonly RunRecord[]): Map<string, RunRecord> {
  const last = new Map<string, RunRecord>();
  for (const record of records) last.set(record.id, record);
  return last;
}

/** `2026-11-24 09:00 (+01:00 Tue)  ok in 1.2 s (run now)`, or with the error of a failed run. */
function describeRun(record: RunRecord, zone: string): string {
  const started = new Date(record.start);
  const when = Number.isNaN(started.getTime()) ? record.start : formatRunTimes([started], zone);
  const took =
    record.outcome === 'missed' || record.outcome === 'skipped' ? '' : ` in ${seconds(record.durationMs)}`;
  const manual = record.manual ? ' (run now)' : '';
  const error = record.error ? `: ${record.error}` : '';
  return `${when}  ${record.outcome}${took}${manual}${error}`;
}

function seconds(ms: number): string {
  return `${(ms / 1000).toFixed(ms < 10_000 ? 1 : 0)} s`;
}
