import type { Logger } from '@macstats/core';
import { GLOBAL_SCOPE, MEMORY_DEFAULTS } from './defaults.js';
import { createFileNoteBackend } from './file-note-backend.js';
import type { Note, NoteLabels, ScopeNotes } from './note.js';
import type { NoteBackend } from './note-backend.js';
import { checkNote } from './note-check.js';

/** The rules of a note store, whatever keeps the notes. Defaults are in {@link MEMORY_DEFAULTS}. */
export interface NoteRuleOptions {
  /** Characters of note text kept per scope; older notes are pruned past it. Default 4000. */
  maxCharsPerScope?: number;
  /** Characters one note may have. Default 500. */
  maxNoteChars?: number;
  /** The clock stamped on new notes (and on corrupt files set aside). Default `Date.now`. */
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

/**
 * Options of {@link createNoteStore}: the rules, and where the notes are kept — a folder of
 * files (`dir`, apps pass `$MACSTATS_HOME/memory`; created with mode 700) or any
 * {@link NoteBackend} (`backend`, e.g. `database.noteBackend()` from `@macstats/store-postgres`).
 */
export type NoteStoreOptions = NoteRuleOptions &
  ({ dir: string; backend?: undefined } | { backend: NoteBackend; dir?: undefined });

/** What an add did: the note's number in its scope, and the oldest notes pruned to make room. */
export type AddOutcome = { refused: string } | { number: number; note: Note; pruned: Note[] };

/** The notes of every scope. */
export interface NoteStore {
  /** The notes of one scope, oldest first. */
  list(scope: string): Promise<Note[]>;
  /** What a conversation sees: its scope's notes and the global ones (empty when it is the global scope). */
  readNotes(scope: string): Promise<ScopeNotes>;
  /**
   * Checks the note (see `checkNote`), appends it, prunes the oldest past the budget, in one atomic
   * update. `labels`: the outside content in the context it was kept from, kept with it.
   */
  add(scope: string, text: string, labels?: NoteLabels): Promise<AddOutcome>;
  /** Removes note `number` (1 is the oldest); resolves the removed note, or `undefined` when there is none. */
  remove(scope: string, number: number): Promise<Note | undefined>;
}

/** Appends `note` and drops the oldest notes until the scope fits `budget` (the newest always stays). */
function appendWithinBudget(notes: Note[], note: Note, budget: number): { kept: Note[]; pruned: Note[] } {
  const kept = [...notes, note];
  const pruned: Note[] = [];
  let total = kept.reduce((sum, entry) => sum + entry.text.length, 0);
  while (total > budget && kept.length > 1) {
    const oldest = kept.shift() as Note;
    pruned.push(oldest);
    total -= oldest.text.length;
  }
  return { kept, pruned };
}

/**
 * Creates the note store: the MEMORY rules over a backend. Every add and remove is one atomic
 * update of its scope in the backend, so concurrent adds never lose each other (across hosts
 * too, with a shared backend such as PostgreSQL).
 *
 * @example
 * const store = createNoteStore({ dir: join(home, 'memory'), logger });
 * const shared = createNoteStore({ backend: database.noteBackend(), logger });
 * const notes = await store.readNotes('discord-123');
 */
export function createNoteStore(options: NoteStoreOptions): NoteStore {
  const maxCharsPerScope = options.maxCharsPerScope ?? MEMORY_DEFAULTS.maxCharsPerScope;
  const maxNoteChars = Math.min(options.maxNoteChars ?? MEMORY_DEFAULTS.maxNoteChars, maxCharsPerScope);
  const now = options.now ?? Date.now;
  const backend = options.backend ?? createFileNoteBackend({ dir: options.dir, now, logger: options.logger });

  return {
    list: (scope) => backend.read(scope),
    async readNotes(scope) {
      const [own, global] = await Promise.all([
        backend.read(scope),
        scope === GLOBAL_SCOPE ? Promise.resolve([]) : backend.read(GLOBAL_SCOPE),
      ]);
      return { scope: own, global };
    },
    async add(scope, raw, labels = {}) {
      const text = raw.replace(/\s+/g, ' ').trim();
      if (text === '') return { refused: 'Not saved: the note is empty.' };
      if (text.length > maxNoteChars) {
        return {
          refused: `Not saved: the note has ${text.length} characters; keep it under ${maxNoteChars}.`,
        };
      }
      const refused = checkNote(text, options.toolNames?.());
      if (refused !== undefined) return { refused };
      return backend.update(scope, (notes) => {
        // Stamped inside the update, so the notes of a scope stay in the order they were kept.
        const note: Note = { text, at: now(), ...keptLabels(labels) };
        const { kept, pruned } = appendWithinBudget(notes, note, maxCharsPerScope);
        return { notes: kept, result: { number: kept.length, note, pruned } };
      });
    },
    remove(scope, number) {
      return backend.update(scope, (notes) => {
        if (!Number.isInteger(number) || number < 1 || number > notes.length) {
          return { notes: undefined, result: undefined };
        }
        const kept = [...notes];
        const [removed] = kept.splice(number - 1, 1);
        return { notes: kept, result: removed };
      });
    },
  };
}

/** The labels a note keeps: only when outside content was in its context. */
function keptLabels(labels: NoteLabels): NoteLabels {
  const outside = labels.outside ?? [];
  if (outside.length === 0) return {};
  return { outside: [...outside], origins: [...(labels.origins ?? [])] };
}
