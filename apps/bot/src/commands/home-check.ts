import { rm, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { ensurePrivateDir, type LoosePath, tightenPrivateTree } from '@macstats/core/internal';
import type { AppConfig } from '../app-config.js';
import { plural } from '../plural.js';
import type { Check } from './doctor-checks.js';

/**
 * MACSTATS_HOME can be written, and only its owner reads it: a home an older version created
 * readable by everyone is tightened here, with one sentence saying so.
 */
export async function checkHome(config: AppConfig): Promise<Check[]> {
  const probe = join(config.home, `.doctor-${process.pid}.tmp`);
  try {
    await ensurePrivateDir(config.home);
    await writeFile(probe, 'ok', { mode: 0o600 });
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
        fix: 'give yourself write access to it (chmod u+rwx) or set MACSTATS_HOME to a folder you own',
      },
    ];
  }
}

/**
 * A home an older version created 0755 (its task files, runs and logs 0644) lets every user of the
 * machine read the instructions, tool results, replies and URLs the agent handled: doctor makes
 * every folder under it 0700 and every file 0600, and says how many it changed. A tree it cannot
 * change (another owner) gets the command to run.
 */
async function tightenHome(config: AppConfig): Promise<Check[]> {
  const mode = (await stat(config.home)).mode & 0o777;
  let changed: LoosePath[];
  try {
    changed = await tightenPrivateTree(config.home);
  } catch (error) {
    return [
      {
        status: 'warn',
        text: `MACSTATS_HOME ${config.home} is readable by other users and could not be changed (${(error as NodeJS.ErrnoException).code})`,
        fix: `run \`chmod -R go-rwx ${config.home}\` as its owner`,
      },
    ];
  }
  if (changed.length === 0) return [];
  const others = changed.filter((entry) => entry.path !== config.home).length;
  const what =
    (mode & 0o077) !== 0
      ? `was readable by other users (mode ${octal(mode)})`
      : 'held files other users could read';
  return [
    {
      status: 'ok',
      text: `MACSTATS_HOME ${config.home} ${what}: it is now 0700, its folders 0700 and its files 0600 (${plural(others, 'path')} changed under it)`,
    },
  ];
}

const octal = (mode: number) => `0${mode.toString(8).padStart(3, '0')}`;
