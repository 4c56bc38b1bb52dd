import type { Logger } from '@macstats/core';
import { createNoteStore, MEMORY_DEFAULTS, type Note, type NoteBackend } from '@macstats/tools-memory';
import type { ScopeFile } from './home-files.js';
import { TOOL_NAMES } from './tool-catalog.js';

/** What {@link importNotes} did. */
export interface NotesImport {
  /** Notes added to the database. */
  copied: number;
  /** Scopes that got at least one. */
  scopes: number;
  /** Notes whose text the scope already had in the database. */
  present: number;
  /** Older notes of the database's scopes pruned to keep a scope within its budget. */
  pruned: number;
  /** One line per note left out: refused by the check, or past the scope's budget in its file. */
  left: string[];
}

const normalise = (text: string) => text.replace(/\s+/g, ' ').trim();
const quote = (text: string) => `"${text.length > 60 ? `${text.slice(0, 57)}...` : text}"`;

/**
 * The newest notes of a file that fit the budget together, as the store would keep them; the
 * rest, only in a file edited by hand, would be pruned on every run and re-added on the next.
 */
function withinBudget(notes: Note[], budget: number): { fits: Note[]; over: Note[] } {
  let total = 0;
  let first = notes.length;
  while (first > 0) {
    const length = (notes[first - 1] as Note).text.length;
    // The newest note always stays, as in the store.
    if (first < notes.length && total + length > budget) break;
    total += length;
    first -= 1;
  }
  return { fits: notes.slice(first), over: notes.slice(0, first) };
}

/**
 * Adds each scope's notes from the files to the database through `createNoteStore`, so every
 * rule of MEMORY applies as if the note were kept now: the check, the note length, and the
 * scope's budget (older notes pruned past it). A note whose text the scope already has is not
 * added again, which makes a second import add nothing. Each note keeps the date it was first
 * kept: the store's clock is set to it for that add.
 */
export async function importNotes(
  files: ScopeFile[],
  backend: NoteBackend,
  logger: Logger,
): Promise<NotesImport> {
  let stamp = 0;
  const store = createNoteStore({ backend, logger, now: () => stamp, toolNames: () => TOOL_NAMES });
  const result: NotesImport = { copied: 0, scopes: 0, present: 0, pruned: 0, left: [] };
  for (const { scope, notes, file } of files) {
    const have = new Set((await store.list(scope)).map((note) => normalise(note.text)));
    const { fits, over } = withinBudget(notes, MEMORY_DEFAULTS.maxCharsPerScope);
    for (const note of over) {
      if (!have.has(normalise(note.text)))
        result.left.push(
          `${scope}: ${quote(note.text)} (past the scope's ${MEMORY_DEFAULTS.maxCharsPerScope} characters in ${file})`,
        );
    }
    let added = 0;
    for (const note of fits) {
      const text = normalise(note.text);
      if (have.has(text)) {
        result.present += 1;
        continue;
      }
      stamp = note.at;
      const outcome = await store.add(scope, note.text);
      if ('refused' in outcome) {
        result.left.push(`${scope}: ${quote(text)} (${outcome.refused})`);
        continue;
      }
      have.add(text);
      added += 1;
      result.pruned += outcome.pruned.length;
    }
    result.copied += added;
    if (added > 0) result.scopes += 1;
  }
  return result;
}
