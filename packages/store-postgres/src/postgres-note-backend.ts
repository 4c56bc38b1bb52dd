import type { Logger } from '@macstats/core';
import { isNoteList, type Note, type NoteBackend, type NoteChange } from '@macstats/tools-memory';
import type { JSONValue, Sql } from 'postgres';
import { STORE_POSTGRES_DEFAULTS } from './defaults.js';
import { storeError } from './error-codes.js';
import { describingFailures } from './postgres-errors.js';

/**
 * MEMORY notes in `macstats_notes`, one row per scope holding the scope's notes as a JSON array
 * and a version, so a note kept on one host is read on every other. An update reads the row,
 * applies the change, and writes in one statement only over the version it read; when another
 * host wrote in between, it reads and applies the change again. So two hosts adding to one scope
 * at the same moment lose nothing, and no transaction is held open across round trips (a paused
 * host blocks no other, and a session the server ends cannot leave a half-fenced write; see
 * `postgres-schedule-source.ts`). A row that does not hold a list of notes reads as none (and is
 * logged); the next update replaces it.
 */
export function createPostgresNoteBackend(sql: Sql, logger: Logger, database: string): NoteBackend {
  function notesOf(scope: string, value: unknown): Note[] {
    if (value === undefined || isNoteList(value)) return value ?? [];
    logger.warn({ scope }, 'memory notes row is not a list of notes; starting with no notes');
    return [];
  }

  return {
    read: (scope) =>
      describingFailures(database, async () => {
        const rows = await sql<{ notes: unknown }[]>`select notes from macstats_notes where scope = ${scope}`;
        return notesOf(scope, rows[0]?.notes);
      }),
    update: <T>(scope: string, change: (notes: Note[]) => NoteChange<T>): Promise<T> =>
      describingFailures(database, () => updateNotes(scope, change)),
  };

  async function updateNotes<T>(scope: string, change: (notes: Note[]) => NoteChange<T>): Promise<T> {
    for (let attempt = 1; ; attempt += 1) {
      const rows = await sql<{ notes: unknown; version: string }[]>`
          select notes, version from macstats_notes where scope = ${scope}`;
      const row = rows[0];
      const { notes, result } = change(notesOf(scope, row?.notes));
      if (notes === undefined) return result;
      const value = sql.json(notes as unknown as JSONValue);
      const written =
        row === undefined
          ? await sql`
                insert into macstats_notes (scope, notes, version) values (${scope}, ${value}, 1)
                on conflict (scope) do nothing returning 1`
          : await sql`
                update macstats_notes set notes = ${value}, version = version + 1, updated_at = now()
                where scope = ${scope} and version = ${row.version} returning 1`;
      if (written.length > 0) return result;
      if (attempt >= STORE_POSTGRES_DEFAULTS.noteUpdateAttempts) {
        throw storeError(
          'NOTES_BUSY',
          `The notes of "${scope}" at ${database} kept changing under this update (${attempt} tries); it was not saved, try again.`,
        );
      }
    }
  }
}
