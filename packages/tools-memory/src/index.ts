export { GLOBAL_SCOPE, MEMORY_DEFAULTS } from './defaults.js';
export { formatNotes, numberedNotes } from './format-notes.js';
export {
  MEMORY_PARAMETERS,
  MEMORY_USAGE,
  type MemoryCommand,
  memoryCommandFromArguments,
  parseMemoryCommand,
} from './memory-command.js';
export { createMemoryTool, type MemoryToolOptions } from './memory-tool.js';
export type { Note, ScopeNotes } from './note.js';
export { checkNote, INSTRUCTION_PATTERNS } from './note-check.js';
export {
  type AddOutcome,
  createNoteStore,
  type NoteStore,
  type NoteStoreOptions,
  noteFileName,
} from './note-store.js';
