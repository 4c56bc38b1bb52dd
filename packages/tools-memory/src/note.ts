/** One saved note. */
export interface Note {
  /** The fact, as saved. */
  text: string;
  /** When it was saved, in ms since the epoch. */
  at: number;
}

/** The notes one conversation sees: its own scope's and the global ones. */
export interface ScopeNotes {
  scope: Note[];
  global: Note[];
}
