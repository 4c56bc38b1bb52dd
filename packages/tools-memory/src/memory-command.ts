/** A parsed MEMORY call. `global` is true when it targets the global scope. */
export type MemoryCommand =
  | { action: 'add'; note: string; global: boolean }
  | { action: 'list'; global: boolean }
  | { action: 'remove'; number: number; global: boolean }
  | { action: 'search'; words: string }
  | { action: 'invalid'; reason: string };

/** The usage line shown to the model. */
export const MEMORY_USAGE = 'MEMORY: add <fact> | list | remove <n> | search <words>';

/** The JSON Schema of MEMORY's structured arguments. */
export const MEMORY_PARAMETERS = {
  type: 'object',
  properties: {
    action: { type: 'string', enum: ['add', 'list', 'remove', 'search'], description: 'What to do.' },
    note: { type: 'string', description: 'For add: one fact to keep, as a plain sentence.' },
    index: { type: 'integer', minimum: 1, description: 'For remove: the note number shown by list.' },
    words: { type: 'string', description: 'For search: words to look for in the notes.' },
    global: {
      type: 'boolean',
      description: 'For add, list and remove: the notes every conversation sees instead of this one’s.',
    },
  },
  required: ['action'],
  additionalProperties: false,
} as const;

const invalid = (reason: string): MemoryCommand => ({ action: 'invalid', reason });
const USAGE_HINT = `Usage: ${MEMORY_USAGE}.`;

function removeCommand(text: string, global: boolean): MemoryCommand {
  const number = Number(text.replace(/^#/, ''));
  return /^#?\d+$/.test(text) && number >= 1
    ? { action: 'remove', number, global }
    : invalid('Say which note to remove by its number from "MEMORY: list", e.g. "MEMORY: remove 2".');
}

/** Parses the text form: `add <note>`, `list`, `remove <n>`, `search <words>`, each optionally after `global`. */
export function parseMemoryCommand(argument: string): MemoryCommand {
  let text = argument.trim();
  let global = false;
  if (/^global\s+/i.test(text)) {
    global = true;
    text = text.replace(/^global\s+/i, '');
  }
  const verb = (/^\S+/.exec(text)?.[0] ?? '').toLowerCase();
  const rest = text.slice(verb.length).trim();
  switch (verb) {
    case 'add':
    case 'remember':
    case 'save':
      return rest === ''
        ? invalid('Give the fact to keep: "MEMORY: add <fact>".')
        : { action: 'add', note: rest, global };
    case 'list':
    case '':
      return { action: 'list', global };
    case 'remove':
    case 'delete':
    case 'forget':
      return removeCommand(rest, global);
    case 'search':
    case 'find':
      return rest === ''
        ? invalid('Give words to look for: "MEMORY: search <words>".')
        : { action: 'search', words: rest };
    default:
      return invalid(`Unknown action "${verb}". ${USAGE_HINT}`);
  }
}

/** The command a structured call (see {@link MEMORY_PARAMETERS}) stands for. */
export function memoryCommandFromArguments(args: Record<string, unknown>): MemoryCommand {
  const global = args.global === true;
  const text = (key: string) => (typeof args[key] === 'string' ? (args[key] as string).trim() : '');
  switch (text('action').toLowerCase()) {
    case 'add':
      return text('note') === ''
        ? invalid('Give the fact to keep in "note".')
        : { action: 'add', note: text('note'), global };
    case 'list':
      return { action: 'list', global };
    case 'remove':
      return typeof args.index === 'number'
        ? removeCommand(String(args.index), global)
        : removeCommand(text('index'), global);
    case 'search':
      return text('words') === ''
        ? invalid('Give the words to look for in "words".')
        : { action: 'search', words: text('words') };
    default:
      return invalid(`Unknown action "${text('action')}": use add, list, remove or search.`);
  }
}
