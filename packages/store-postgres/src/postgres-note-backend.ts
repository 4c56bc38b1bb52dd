import type { Logger } from '@macstats/core';
import { isNoteList, type Note, type NoteBackend, type NoteChange } from '@macstats/tools-memory';
import type { JSONValue, Sql } from 'postgres';

/**
 * MEMORY notes in `macstats_notes`, one row per scope holding the scope's notes as a JSON
 * array, so a note kept on one host is read on every other. An update runs in one transaction
 * holding the scope's row lock (`select … for update`), so two hosts adding to one scope at the
 * same moment each see the other's note: nothing is lost. A row that does not hold a list of
 * notes reads as none (and is logged); the next update replaces it.
 */
export function createPostgresNoteBackend(sql: Sql, logger: Logger): NoteBackend {
  function notesOf(scope: string, value: unknown): Note[] {
    if (value === undefined || isNoteList(value)) return value ?? [];
    logger.warn({ scope }, 'memory notes row is not a list of notes; starting with no notes');
    return [];
  }

  return {
    async read(scope) {
      const rows = await sql<{ notes: unknown }[]>`select notes from macstats_notes where scope = ${scope}`;
      return notesOf(scope, rows[0]?.notes);
    },
    update<T>(scope: string, change: (notes: Note[]) => NoteChange<T>): Promise<T> {
      return sql.begin(async (tx) => {
        // The row must exist to be locked; a concurrent insert of the same scope waits for ours.
        await tx`insert into macstats_notes (scope) values (${scope}) on conflict (scope) do nothing`;
        const rows = await tx<{ notes: unknown }[]>`
          select notes from macstats_notes where scope = ${scope} for update`;
        const { notes, result } = change(notesOf(scope, rows[0]?.notes));
        if (notes !== undefined) {
          await tx`
            update macstats_notes set notes = ${sql.json(notes as unknown as JSONValue)}, updated_at = now()
            where scope = ${scope}`;
        }
        return result;
      }) as Promise<T>;
    },
  };
}
