import { readFile } from 'node:fs/promises';
import { formatRunTimes, nextRunTimes, parseSchedules } from '@macstats/scheduler';
import { type AppConfig, paths } from '../app-config.js';
import { type CommandIo, EXIT } from '../command-io.js';

/** `macstats schedules`: every schedule with its next run times; exit 3 when the file has errors. */
export async function schedulesCommand(
  config: AppConfig,
  io: CommandIo,
  options: { count: number; now?: Date },
): Promise<number> {
  const file = paths(config).schedules;
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') {
      io.out(`No schedules: ${file} does not exist.`);
      return EXIT.ok;
    }
    io.err(`Could not read ${file}: ${(error as Error).message}`);
    return EXIT.config;
  }
  const { schedules, errors } = parseSchedules(text);
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
  }
  if (schedules.length === 0 && errors.length === 0) io.out('No schedules in the file.');
  for (const error of errors) io.err(`error in ${file}: ${error}`);
  return errors.length > 0 ? EXIT.config : EXIT.ok;
}
