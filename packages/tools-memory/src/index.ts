export { GLOBAL_SCOPE, MEMORY_DEFAULTS } from './defaults.js';
export { createFileNoteBackend, type FileNoteBackendOptions, noteFileName } from './file-note-backend.js';
export { formatNotes, numberedNotes } from './format-notes.js';
export {
  MEMORY_PARAMETERS,
  MEMORY_USAGE,
  type MemoryCommand,
  memoryCommandFromArguments,
  parseMemoryCommand,
} from './memory-command.js';
export { createMemoryTool, type MemoryToolOptions } from './memory-tool.js';
export { type Note, type NoteLabels, notesLabels, type ScopeNotes } from './note.js';
export { isNoteList, type NoteBackend, type NoteChange } from './note-backend.js';
export { type NoteBackendCheck, noteBackendChecks } from './note-backend-checks.js';
export { checkNote, INSTRUCTION_PATTERNS } from './note-check.js';
export {
  type AddOutcome,
  createNoteStore,
  type NoteRuleOptions,
  type NoteStore,
  type NoteStoreOptions,
} from './note-store.js';
