import { createHash } from 'node:crypto';
import { mkdir, readFile, rename } from 'node:fs/promises';
import { join } from 'node:path';
import { type Logger, silentLogger } from '@macstats/core';
import writeFileAtomic from 'write-file-atomic';
import { GLOBAL_SCOPE, MEMORY_DEFAULTS } from './defaults.js';
import type { Note, ScopeNotes } from './note.js';
import { checkNote } from './note-check.js';

/** Options of {@link createNoteStore}. Defaults are in {@link MEMORY_DEFAULTS}. */
export interface NoteStoreOptions {
  /** Folder of the note files (apps pass `$MACSTATS_HOME/memory`); created with mode 700. */
  dir: string;
  /** Characters of note text kept per scope; older notes are pruned past it. Default 4000. */
  maxCharsPerScope?: number;
  /** Characters one note may have. Default 500. */
  maxNoteChars?: number;
  /** The clock stamped on new notes and on corrupt files set aside. Default `Date.now`. */
  now?: () => number;
  /** Where corrupt files and failed reads are reported. Default: silent. */
  logger?: Logger;
  /**
   * The tools the notes' readers can call. A note is refused when it calls one of them (in any
   * format); a plain `NAS: 10.0.0.2` line is kept when no tool is named NAS. Without it, any
   * `NAME: …` line counts as a call.
   */
  toolNames?: () => readonly string[];
}

/** What an add did: the note's number in its scope, and the oldest notes pruned to make room. */
export type AddOutcome = { refused: string } | { number: number; note: Note; pruned: Note[] };

/** The notes of every scope, one small JSON file each. */
export interface NoteStore {
  /** The notes of one scope, oldest first. */
  list(scope: string): Promise<Note[]>;
  /** What a conversation sees: its scope's notes and the global ones (empty when it is the global scope). */
  readNotes(scope: string): Promise<ScopeNotes>;
  /** Checks the note (see `checkNote`), appends it, prunes the oldest past the budget, writes atomically. */
  add(scope: string, text: string): Promise<AddOutcome>;
  /** Removes note `number` (1 is the oldest); resolves the removed note, or `undefined` when there is none. */
  remove(scope: string, number: number): Promise<Note | undefined>;
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
  return (
    file.scope === scope &&
    Array.isArray(file.notes) &&
    file.notes.every(
      (note) =>
        typeof note === 'object' &&
        note !== null &&
        typeof note.text === 'string' &&
        typeof note.at === 'number',
    )
  );
}

/**
 * Creates the note store. Writes to one scope are queued in this process, so two adds never
 * lose each other; each write replaces the file atomically (temp file + rename).
 *
 * @example
 * const store = createNoteStore({ dir: join(home, 'memory'), logger });
 * const notes = await store.readNotes('discord-123');
 */
export function createNoteStore(options: NoteStoreOptions): NoteStore {
  const maxCharsPerScope = options.maxCharsPerScope ?? MEMORY_DEFAULTS.maxCharsPerScope;
  const maxNoteChars = Math.min(options.maxNoteChars ?? MEMORY_DEFAULTS.maxNoteChars, maxCharsPerScope);
  const now = options.now ?? Date.now;
  const logger = options.logger ?? silentLogger;
  const queues = new Map<string, Promise<unknown>>();

  const fileOf = (scope: string) => join(options.dir, noteFileName(scope));

  async function load(scope: string): Promise<Note[]> {
    const file = fileOf(scope);
    let text: string;
    try {
      text = await readFile(file, 'utf8');
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return [];
      throw error;
    }
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
    await mkdir(options.dir, { recursive: true, mode: 0o700 });
    const body: NotesFile = { scope, notes };
    await writeFileAtomic(fileOf(scope), `${JSON.stringify(body, null, 1)}\n`, { mode: 0o600 });
  }

  /** Runs `work` after every earlier write to the same scope. */
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
    list: (scope) => queued(scope, () => load(scope)),
    async readNotes(scope) {
      const [own, global] = await Promise.all([
        this.list(scope),
        scope === GLOBAL_SCOPE ? Promise.resolve([]) : this.list(GLOBAL_SCOPE),
      ]);
      return { scope: own, global };
    },
    add(scope, raw) {
      const text = raw.replace(/\s+/g, ' ').trim();
      if (text === '') return Promise.resolve({ refused: 'Not saved: the note is empty.' });
      if (text.length > maxNoteChars) {
        return Promise.resolve({
          refused: `Not saved: the note has ${text.length} characters; keep it under ${maxNoteChars}.`,
        });
      }
      const refused = checkNote(text, options.toolNames?.());
      if (refused !== undefined) return Promise.resolve({ refused });
      return queued(scope, async () => {
        const notes = await load(scope);
        const note: Note = { text, at: now() };
        notes.push(note);
        const pruned: Note[] = [];
        let total = notes.reduce((sum, entry) => sum + entry.text.length, 0);
        while (total > maxCharsPerScope && notes.length > 1) {
          const oldest = notes.shift() as Note;
          pruned.push(oldest);
          total -= oldest.text.length;
        }
        await save(scope, notes);
        return { number: notes.length, note, pruned };
      });
    },
    remove(scope, number) {
      return queued(scope, async () => {
        const notes = await load(scope);
        if (!Number.isInteger(number) || number < 1 || number > notes.length) return undefined;
        const [removed] = notes.splice(number - 1, 1);
        await save(scope, notes);
        return removed;
      });
    },
  };
}
