import { chmod, lstat, mkdir, readdir, rm, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { type AppConfig, paths } from '../app-config.js';
import { LOG_DIR_MODE, LOG_FILE_MODE } from '../logger.js';
import type { Check } from './doctor-checks.js';

/**
 * MACSTATS_HOME can be written, and only its owner reads it: a home an older version created
 * readable by everyone is tightened here, with one sentence saying so.
 */
export async function checkHome(config: AppConfig): Promise<Check[]> {
  const probe = join(config.home, `.doctor-${process.pid}.tmp`);
  try {
    await mkdir(config.home, { recursive: true, mode: LOG_DIR_MODE });
    await writeFile(probe, 'ok');
    await rm(probe, { force: true });
    return [
      { status: 'ok', text: `MACSTATS_HOME ${config.home} is writable` },
      ...(await tightenHome(config)),
    ];
  } catch (error) {
    return [
      {
        status: 'fail',
        text: `MACSTATS_HOME ${config.home} is not writable (${(error as NodeJS.ErrnoException).code})`,
        fix: 'fix its permissions or set MACSTATS_HOME',
      },
    ];
  }
}

/**
 * A home an older version created 0755 (and its logs 0644) lets every user of the machine read
 * the URLs the agent fetched and the configuration lines: doctor makes it 0700 and the logs
 * 0600, and says so. A home it cannot change (another owner) gets the command to run.
 */
async function tightenHome(config: AppConfig): Promise<Check[]> {
  const mode = (await stat(config.home)).mode & 0o777;
  const logs = paths(config).logs;
  const looseLogs: string[] = [];
  for (const name of await readdir(logs).catch(() => [] as string[])) {
    const path = join(logs, name);
    const info = await lstat(path);
    if (info.isFile() && (info.mode & 0o077) !== 0) looseLogs.push(path);
  }
  const logsMode = ((await stat(logs).catch(() => undefined))?.mode ?? 0) & 0o777;
  if ((mode & 0o077) === 0 && (logsMode & 0o077) === 0 && looseLogs.length === 0) return [];
  try {
    await chmod(config.home, LOG_DIR_MODE);
    if (logsMode !== 0) await chmod(logs, LOG_DIR_MODE);
    for (const path of looseLogs) await chmod(path, LOG_FILE_MODE);
  } catch (error) {
    return [
      {
        status: 'warn',
        text: `MACSTATS_HOME ${config.home} is readable by other users (mode ${octal(mode)}) and could not be changed (${(error as NodeJS.ErrnoException).code})`,
        fix: `run \`chmod -R go-rwx ${config.home}\` as its owner`,
      },
    ];
  }
  return [
    {
      status: 'ok',
      text: `MACSTATS_HOME ${config.home} was readable by other users (mode ${octal(mode)}): it is now 0700 and its logs 0600`,
    },
  ];
}

const octal = (mode: number) => `0${mode.toString(8).padStart(3, '0')}`;
