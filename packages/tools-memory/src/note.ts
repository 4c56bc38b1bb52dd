/** One saved note. */
export interface Note {
  /** The fact, as saved. */
  text: string;
  /** When it was saved, in ms since the epoch. */
  at: number;
  /**
   * The outside content in the context when the note was kept (an approved note saved after a
   * page was read): the note reads back as outside content, not as the user's words.
   */
  outside?: string[];
  /** The sites that outside content came from. */
  origins?: string[];
}

/** What the context held when a note was kept, as the note keeps it. */
export type NoteLabels = Pick<Note, 'outside' | 'origins'>;

/**
 * The labels notes carry back into a context: the outside content any of them was kept beside,
 * and its sites. Empty when every note was kept in a context of the user's own words.
 */
export function notesLabels(notes: readonly Note[]): { outside: string[]; origins: string[] } {
  const outside = new Set<string>();
  const origins = new Set<string>();
  for (const note of notes) {
    if ((note.outside ?? []).length === 0) continue;
    outside.add(`a note kept after reading ${note.outside?.slice(0, 2).join(', ')}`);
    for (const origin of note.origins ?? []) origins.add(origin);
  }
  return { outside: [...outside], origins: [...origins] };
}

/** The notes one conversation sees: its own scope's and the global ones. */
export interface ScopeNotes {
  scope: Note[];
  global: Note[];
}
