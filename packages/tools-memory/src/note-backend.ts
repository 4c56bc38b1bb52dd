import type { Note } from './note.js';

/**
 * What a {@link NoteBackend}'s `update` is given back by the change: the scope's new notes (or
 * `undefined` when nothing is to be written) and the value `update` resolves with.
 */
export interface NoteChange<T> {
  /** The scope's notes after the change, oldest first; `undefined` writes nothing. */
  notes: Note[] | undefined;
  /** What `update` resolves with. */
  result: T;
}

/**
 * Where notes are kept, and nothing else: the rules (the check, the budget, numbering, the
 * global scope) live in `createNoteStore`, so every backend keeps them the same way. The files
 * under `$MACSTATS_HOME/memory` are the default (`createFileNoteBackend`); `@macstats/store-postgres`
 * gives one that several hosts share. `noteBackendChecks` are the behaviour any backend must pass.
 */
export interface NoteBackend {
  /** A scope's notes, oldest first; empty when the scope has none. */
  read(scope: string): Promise<Note[]>;
  /**
   * Reads a scope's notes, calls `change` on them and writes what it returns, as one atomic
   * step: two updates of one scope (from this process or, for a shared backend, another host)
   * never lose each other's change. `change` is synchronous and free of side effects: a backend
   * may call it again on fresher notes when another writer got in first, and resolves with the
   * result of the call whose notes it wrote. When it throws, nothing is written and `update`
   * rejects with its error.
   */
  update<T>(scope: string, change: (notes: Note[]) => NoteChange<T>): Promise<T>;
}

/** Whether a value read back from storage is a list of notes (`{ text, at }` each). */
export function isNoteList(value: unknown): value is Note[] {
  return (
    Array.isArray(value) &&
    value.every(
      (note) =>
        typeof note === 'object' &&
        note !== null &&
        typeof (note as Partial<Note>).text === 'string' &&
        typeof (note as Partial<Note>).at === 'number',
    )
  );
}
