/** Defaults of `createMemoryTool` and `createNoteStore`, in one place. */
export const MEMORY_DEFAULTS = {
  /** Characters of note text kept per scope; past it the oldest notes are pruned. */
  maxCharsPerScope: 4_000,
  /** Characters one note may have. */
  maxNoteChars: 500,
  /** Notes a search answers with. */
  maxSearchResults: 10,
} as const;

/** The scope every conversation reads and only an entry point given `canWriteGlobal` may write. */
export const GLOBAL_SCOPE = 'global';
