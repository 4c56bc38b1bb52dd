import { join } from 'node:path';
import type { Logger } from '@macstats/core';
import { createNoteStore, type NoteBackend, type NoteStore } from '@macstats/tools-memory';

/** Options of {@link openNoteStore}. */
export interface OpenNoteStoreOptions {
  /** `MACSTATS_HOME`: without a `backend`, the notes are the files in `<home>/memory`. */
  home: string;
  /** Where the notes are kept instead (DATABASE_URL: the database's, which every host shares). */
  backend?: NoteBackend | undefined;
  /** Where corrupt files and failed reads are reported. Default: silent. */
  logger?: Logger | undefined;
  /** The tools the notes' readers can call: a note that calls one of them is refused. */
  toolNames: () => readonly string[];
  /** The clock stamped on new notes. Default `Date.now`. */
  now?: (() => number) | undefined;
}

/**
 * MEMORY's notes where an app keeps them: in `backend` when given, else the files under
 * `<home>/memory`, with the MEMORY tool's rules (the check, the length, each scope's budget).
 * The bot's and the dashboard's tools and the Notes view open them here, so each reads and
 * writes the same notes the same way. `macstats database import` (`importNotes`) writes to the
 * database's with tools-memory's `createNoteStore` directly (it is given the backend, not a
 * home), under the same rules.
 *
 * @example
 * const notes = openNoteStore({ home, backend: database?.noteBackend(), logger, toolNames: () => names });
 */
export function openNoteStore(options: OpenNoteStoreOptions): NoteStore {
  return createNoteStore({
    ...(options.backend ? { backend: options.backend } : { dir: join(options.home, 'memory') }),
    ...(options.logger ? { logger: options.logger } : {}),
    ...(options.now ? { now: options.now } : {}),
    toolNames: options.toolNames,
  });
}
