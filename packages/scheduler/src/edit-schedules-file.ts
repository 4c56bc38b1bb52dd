import { readFile } from 'node:fs/promises';
import { writePrivateFile } from '@macstats/core/internal';
import { parseSchedules } from './parse-schedules.js';
import type { SchedulesFile } from './schedule.js';
import { schedulerError } from './scheduler-errors.js';

const editing = new Map<string, Promise<unknown>>();
const attempts = 5;

/**
 * Changes `schedules.json` without losing anyone's edit: reads it, lets `change` modify the
 * parsed document (other fields and entries are kept as they are), re-reads the file right
 * before writing and starts over if it changed meanwhile, then writes it atomically (temp file
 * + rename); a document `change` leaves as it was is not written at all. Edits from one process run one at a time. `change` may run more than once, so it
 * must work from the document it is given.
 *
 * Throws `SCHEDULES_FILE_INVALID` when the file is not a usable schedules file (it is left
 * alone), `SCHEDULES_FILE_BUSY` when it kept changing.
 */
export function editSchedulesFile<T>(
  file: string,
  change: (document: SchedulesFile) => T | Promise<T>,
): Promise<T> {
  const previous = editing.get(file) ?? Promise.resolve();
  const edit = previous.catch(() => {}).then(() => editOnce(file, change));
  editing.set(file, edit);
  void edit
    .catch(() => {})
    .finally(() => {
      if (editing.get(file) === edit) editing.delete(file);
    });
  return edit;
}

/** Reads `schedules.json` as a document; a missing file reads as `{"schedules": []}`. */
export async function readSchedulesDocument(
  file: string,
): Promise<{ text: string | undefined; document: SchedulesFile }> {
  const text = await readText(file);
  if (text === undefined) return { text, document: { schedules: [] } };
  const parsed = parseSchedules(text);
  if (!parsed.usable) {
    throw schedulerError(
      'SCHEDULES_FILE_INVALID',
      `${parsed.errors[0] ?? ''} Fix ${file} first; it was not changed.`,
    );
  }
  return { text, document: JSON.parse(text) as SchedulesFile };
}

async function editOnce<T>(file: string, change: (document: SchedulesFile) => T | Promise<T>): Promise<T> {
  for (let attempt = 0; attempt < attempts; attempt += 1) {
    const { text, document } = await readSchedulesDocument(file);
    const original = JSON.stringify(document);
    const result = await change(document);
    // Nothing changed (a refused add, say): leave the user's file exactly as it is.
    if (JSON.stringify(document) === original) return result;
    if ((await readText(file)) !== text) continue;
    await writePrivateFile(file, `${JSON.stringify(document, null, 2)}\n`);
    return result;
  }
  throw schedulerError('SCHEDULES_FILE_BUSY', `${file} kept changing while it was being edited; try again.`);
}

async function readText(file: string): Promise<string | undefined> {
  try {
    return await readFile(file, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
}
