import { createHash } from 'node:crypto';
import { rename } from 'node:fs/promises';
import { join } from 'node:path';
import { type Logger, silentLogger } from '@macstats/core';
import { readTextIfPresent, writePrivateFile } from '@macstats/core/internal';
import type { Note } from './note.js';
import { isNoteList, type NoteBackend } from './note-backend.js';

/** Options of {@link createFileNoteBackend}. */
export interface FileNoteBackendOptions {
  /** Folder of the note files (apps pass `$MACSTATS_HOME/memory`); created with mode 700. */
  dir: string;
  /** The clock that names corrupt files set aside. Default `Date.now`. */
  now?: (() => number) | undefined;
  /** Where corrupt files are reported. Default: silent. */
  logger?: Logger | undefined;
}

/** The file one scope lives in; the scope is hashed, so no scope can name a path outside the folder. */
export function noteFileName(scope: string): string {
  return `notes-${createHash('sha256').update(scope).digest('hex').slice(0, 40)}.json`;
}

interface NotesFile {
  scope: string;
  notes: Note[];
}

function isNotesFile(value: unknown, scope: string): value is NotesFile {
  if (typeof value !== 'object' || value === null) return false;
  const file = value as Partial<NotesFile>;
  return file.scope === scope && isNoteList(file.notes);
}

/**
 * Notes in one small JSON file per scope (`notes-<sha256 of the scope>.json`, mode 600), each
 * write replacing the file atomically (temp file + rename). Reads and updates of one scope are
 * queued in this process, so two adds here never lose each other; two processes writing one
 * scope at the same instant can (the last write wins, whole) — share a database for that.
 * A corrupt file is set aside as `<file>.corrupt-<time>` with a log line, and the scope starts empty.
 *
 * @example
 * const store = createNoteStore({ backend: createFileNoteBackend({ dir: join(home, 'memory') }) });
 */
export function createFileNoteBackend(options: FileNoteBackendOptions): NoteBackend {
  const now = options.now ?? Date.now;
  const logger = options.logger ?? silentLogger;
  const queues = new Map<string, Promise<unknown>>();
  const fileOf = (scope: string) => join(options.dir, noteFileName(scope));

  async function load(scope: string): Promise<Note[]> {
    const file = fileOf(scope);
    const text = await readTextIfPresent(file);
    if (text === undefined) return [];
    let parsed: unknown;
    try {
      parsed = JSON.parse(text);
    } catch {
      parsed = undefined;
    }
    if (isNotesFile(parsed, scope)) return parsed.notes;
    const aside = `${file}.corrupt-${now()}`;
    try {
      await rename(file, aside);
      logger.warn(
        { scope, file, movedTo: aside },
        'memory notes file was corrupt; set aside, starting with no notes',
      );
    } catch (error) {
      logger.warn({ scope, file, err: error }, 'memory notes file was corrupt and could not be set aside');
    }
    return [];
  }

  async function save(scope: string, notes: Note[]): Promise<void> {
    const body: NotesFile = { scope, notes };
    await writePrivateFile(fileOf(scope), `${JSON.stringify(body, null, 1)}\n`);
  }

  /** Runs `work` after every earlier read and write of the same scope. */
  function queued<T>(scope: string, work: () => Promise<T>): Promise<T> {
    const previous = queues.get(scope) ?? Promise.resolve();
    const next = previous.then(work, work);
    const settled = next.catch(() => {});
    queues.set(scope, settled);
    settled.then(() => {
      if (queues.get(scope) === settled) queues.delete(scope);
    });
    return next;
  }

  return {
    read: (scope) => queued(scope, () => load(scope)),
    update: (scope, change) =>
      queued(scope, async () => {
        const { notes, result } = change(await load(scope));
        if (notes !== undefined) await save(scope, notes);
        return result;
      }),
  };
}
