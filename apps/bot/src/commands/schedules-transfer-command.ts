import { readFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import { isSchedulesFileInvalid, parseSchedules } from '@macstats/scheduler';
import writeFileAtomic from 'write-file-atomic';
import { type AppConfig, paths } from '../app-config.js';
import { type CommandIo, EXIT } from '../command-io.js';
import { plural } from '../plural.js';
import { openScheduleStore } from '../schedule-store.js';

/** What `export` writes when there are no schedules yet: an empty, valid `schedules.json`. */
const EMPTY_DOCUMENT = '{\n  "schedules": []\n}\n';

/**
 * `macstats schedules import <file>`: replaces the shared table's schedules with a
 * `schedules.json` (`DATABASE_URL` only; without it the schedules already live in the file, and
 * this says so with exit 2). A file that cannot be read or is not a usable schedules file is
 * refused with its sentence and exit 3, and nothing changes; entries with errors are imported and
 * reported, as the scheduler skips them until they are fixed.
 */
export async function importSchedulesCommand(
  config: AppConfig,
  io: CommandIo,
  options: { file: string },
): Promise<number> {
  if (!config.databaseUrl) {
    io.err(
      `The schedules already live in ${paths(config).schedules} (no DATABASE_URL is set): edit or replace that file instead. \`macstats schedules import\` loads a file into the database's table.`,
    );
    return EXIT.usage;
  }
  const input = resolve(options.file);
  let text: string;
  try {
    text = await readFile(input, 'utf8');
  } catch (error) {
    const reason = (error as NodeJS.ErrnoException).code ?? (error as Error).message;
    io.err(`Cannot import ${input}: it could not be read (${reason}). Nothing was imported.`);
    return EXIT.config;
  }
  const store = await openScheduleStore(config, io.logger);
  try {
    if (!store.import) throw new Error('unreachable: a shared store imports');
    let result: { schedules: number; errors: string[] };
    try {
      result = await store.import(text);
    } catch (error) {
      if (!isSchedulesFileInvalid(error)) throw error;
      io.err(`Cannot import ${input}: ${error.message}`);
      return EXIT.config;
    }
    io.out(
      `Imported ${plural(result.schedules, 'schedule')} from ${input} into ${store.source.description}.`,
    );
    for (const error of result.errors)
      io.err(`error in ${input}: ${error} (imported; the scheduler skips it until it is fixed)`);
    return EXIT.ok;
  } finally {
    await store.close();
  }
}

/**
 * `macstats schedules export [file]`: the schedules as a `schedules.json` document, on standard
 * output or written to `file` atomically (temporary file + rename). With `DATABASE_URL` from the
 * shared table; without it from `schedules.json` itself, which standard error names.
 */
export async function exportSchedulesCommand(
  config: AppConfig,
  io: CommandIo,
  options: { file?: string | undefined },
): Promise<number> {
  const store = await openScheduleStore(config, io.logger);
  try {
    const where = store.source.description;
    if (!store.shared)
      io.err(`The schedules already live in ${where} (no DATABASE_URL is set); exporting that file.`);
    const stored = await store.source.read();
    const text = stored === undefined ? EMPTY_DOCUMENT : stored.endsWith('\n') ? stored : `${stored}\n`;
    const parsed = parseSchedules(text);
    if (!parsed.usable)
      io.err(`${where} is not a usable schedules file (${parsed.errors[0]}); exported as it is.`);
    if (options.file === undefined) {
      io.write(text);
      return EXIT.ok;
    }
    const target = resolve(options.file);
    await writeFileAtomic(target, text);
    const entries = parsed.usable
      ? (JSON.parse(text) as { schedules: unknown[] }).schedules.length
      : undefined;
    io.out(
      `Exported ${entries === undefined ? 'the document' : plural(entries, 'schedule')} from ${where} to ${target}.`,
    );
    return EXIT.ok;
  } finally {
    await store.close();
  }
}
