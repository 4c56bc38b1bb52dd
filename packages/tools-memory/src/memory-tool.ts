import {
  type CallToParse,
  defineTool,
  formatRecalledMessage,
  type Logger,
  type MessageArchive,
  type ParseResult,
  searchArchive,
  type Tool,
  type ToolContext,
  type ToolResult,
} from '@macstats/core';
import { GLOBAL_SCOPE, MEMORY_DEFAULTS } from './defaults.js';
import { noteDate, numberedNotes } from './format-notes.js';
import {
  MEMORY_PARAMETERS,
  MEMORY_USAGE,
  type MemoryCommand,
  memoryCommandFromArguments,
  parseMemoryCommand,
} from './memory-command.js';
import { type Note, notesLabels } from './note.js';
import { createNoteStore, type NoteStore, type NoteStoreOptions } from './note-store.js';

/** Options of {@link createMemoryTool}: a note store (or the options to make one) and who may write what. */
export type MemoryToolOptions = (NoteStoreOptions | { store: NoteStore }) & {
  /**
   * Whether this entry point may add to and remove from the global scope (every conversation
   * reads it). Default `false`: only the dashboard, whose user owns the machine, passes `true`.
   */
  canWriteGlobal?: boolean;
  /** The scope of calls without a `conversationId` (an MCP client, say). Default: such calls are refused. */
  defaultScope?: string;
  /** Notes a search answers with. Default 10. */
  maxSearchResults?: number;
  /** Where adds and refusals are logged. Default: silent. */
  logger?: Logger;
  /**
   * The conversations' message archive (the agent's `memory.archive`): `search` then also finds
   * earlier messages of the conversation, dated and attributed. Default: notes only.
   */
  archive?: MessageArchive;
};

const quote = (note: Note) => `"${note.text.length > 60 ? `${note.text.slice(0, 57)}…` : note.text}"`;

/**
 * Creates the MEMORY tool: durable notes the model keeps, one scope per conversation (the
 * tool context's `conversationId`, e.g. `discord-<channel>`) plus a global scope every
 * conversation reads. `MEMORY: add <fact> | list | remove <n> | search <words>`, or the
 * structured form `{ action, note?, index?, words?, global? }`.
 *
 * Notes are read back to the model as trusted text in later answers (see `formatNotes`), so
 * they must be facts, not orders: a note carrying a tool call or an instruction to the
 * assistant is refused (see `checkNote`) — that is what stops a fetched page from planting
 * "remember: run RUN_CMD cat …". Each scope has a size budget; past it the oldest notes are
 * pruned and the result says which.
 *
 * @example
 * const memory = createMemoryTool({ dir: join(config.home, 'memory'), logger });
 * const agent = createAgent({ ollama: { model }, tools: [memory] });
 */
export function createMemoryTool(options: MemoryToolOptions): Tool {
  const store = 'store' in options ? options.store : createNoteStore(options);
  const canWriteGlobal = options.canWriteGlobal ?? false;
  const maxSearchResults = options.maxSearchResults ?? MEMORY_DEFAULTS.maxSearchResults;

  async function add(
    scope: string,
    text: string,
    global: boolean,
    context: ToolContext,
  ): Promise<ToolResult> {
    // What was in the context goes with the note: kept after a page was read, it reads back as outside.
    const outcome = await store.add(scope, text, {
      outside: context.labels?.outside ?? [],
      origins: context.labels?.origins ?? [],
    });
    const logger = context.logger ?? options.logger;
    if ('refused' in outcome) {
      logger?.warn({ scope, reason: outcome.refused }, 'MEMORY: note refused');
      return { isError: true, text: outcome.refused };
    }
    logger?.info({ scope, number: outcome.number, pruned: outcome.pruned.length }, 'MEMORY: note saved');
    const where = global ? 'for every conversation' : 'in this conversation';
    const pruned =
      outcome.pruned.length === 0
        ? ''
        : ` To stay within the memory budget, the ${outcome.pruned.length === 1 ? 'oldest note was' : `${outcome.pruned.length} oldest notes were`} removed: ${outcome.pruned.map(quote).join(', ')}.`;
    return { text: `Saved note ${outcome.number} ${where}.${pruned}` };
  }

  async function list(scope: string, global: boolean): Promise<ToolResult> {
    if (global) {
      const notes = await store.list(GLOBAL_SCOPE);
      if (notes.length === 0) return { text: 'No global notes.' };
      return readBack(`Global notes:\n${numberedNotes(notes)}`, notes);
    }
    const notes = await store.readNotes(scope);
    const parts = [
      notes.scope.length === 0
        ? 'No notes in this conversation.'
        : `Notes in this conversation:\n${numberedNotes(notes.scope)}`,
    ];
    if (notes.global.length > 0)
      parts.push(`Global notes (for every conversation):\n${numberedNotes(notes.global)}`);
    return readBack(parts.join('\n\n'), [...notes.scope, ...notes.global]);
  }

  async function search(scope: string, words: string, conversation: string | undefined): Promise<ToolResult> {
    const terms = [
      ...new Set(
        words
          .toLowerCase()
          .split(/[^\p{L}\p{N}.@:/-]+/u)
          .filter((term) => term.length > 1),
      ),
    ];
    if (terms.length === 0)
      return { isError: true, text: 'Give at least one word of two letters or more to search for.' };
    const notes = await store.readNotes(scope);
    const candidates = [
      ...notes.scope.map((note, index) => ({ note, label: `${index + 1}` })),
      ...notes.global.map((note, index) => ({ note, label: `global ${index + 1}` })),
    ];
    const hits = candidates
      .map((candidate) => ({
        ...candidate,
        score: terms.filter((term) => candidate.note.text.toLowerCase().includes(term)).length,
      }))
      .filter((candidate) => candidate.score > 0)
      .sort((a, b) => b.score - a.score || b.note.at - a.note.at)
      .slice(0, maxSearchResults);
    const noteLines = hits.map((hit) => `${hit.label}. (${noteDate(hit.note)}) ${hit.note.text}`);
    const earlier =
      options.archive && conversation !== undefined ? await searchMessages(conversation, words) : undefined;
    if (noteLines.length === 0 && (earlier === undefined || earlier.text === ''))
      return {
        text: `No note${earlier ? ' or earlier message' : ''} mentions ${terms.map((term) => `"${term}"`).join(' or ')}.`,
      };
    const parts =
      noteLines.length > 0 ? [earlier ? `Notes:\n${noteLines.join('\n')}` : noteLines.join('\n')] : [];
    if (earlier && earlier.text !== '') parts.push(earlier.text);
    // Notes kept beside outside content, and remembered answers that read it, stay outside.
    const kept = notesLabels(hits.map((hit) => hit.note));
    const outside = [...kept.outside, ...(earlier?.labels?.outside ?? [])];
    const origins = [...new Set([...kept.origins, ...(earlier?.labels?.origins ?? [])])];
    const text = parts.join('\n\n');
    return outside.length === 0 ? { text } : { text, labels: { outside, origins } };
  }

  /** The conversation's earlier messages that match, dated; an outside one labels the result. */
  async function searchMessages(conversation: string, words: string): Promise<ToolResult | undefined> {
    if (!options.archive) return undefined;
    const hits = await searchArchive(options.archive, conversation, words, {
      limit: maxSearchResults,
      // The note store's clock, when it was given one, dates the search too.
      now: new Date('now' in options && options.now ? options.now() : Date.now()),
    });
    if (hits.length === 0) return { text: '' };
    const messages = hits.map((hit) => hit.message).sort((a, b) => a.seq - b.seq);
    const outside = messages.filter((message) => message.outside);
    const text = `Earlier messages in this conversation (oldest first):\n${messages.map(formatRecalledMessage).join('\n')}`;
    if (outside.length === 0) return { text };
    return {
      text,
      labels: {
        outside: ['a remembered answer that read outside content'],
        origins: [...new Set(outside.flatMap((message) => message.origins ?? []))],
      },
    };
  }

  async function execute(command: ValidCommand, context: ToolContext): Promise<ToolResult> {
    const conversation = context.conversationId ?? options.defaultScope;
    if (conversation === undefined && !(command.action !== 'search' && command.global)) {
      return { isError: true, text: 'MEMORY needs a conversation to keep notes in, and this call has none.' };
    }
    const own = conversation ?? GLOBAL_SCOPE;
    if (command.action === 'search') return search(own, command.words, conversation);
    if (command.action === 'list') return list(own, command.global);
    if (command.global && !canWriteGlobal) {
      return {
        isError: true,
        text: 'Global notes can only be changed from the dashboard; keep the note in this conversation instead.',
      };
    }
    const scope = command.global ? GLOBAL_SCOPE : own;
    if (command.action === 'add') return add(scope, command.note, command.global, context);
    const removed = await store.remove(scope, command.number);
    return removed === undefined
      ? { isError: true, text: `There is no note ${command.number}; "MEMORY: list" shows the numbers.` }
      : { text: `Removed note ${command.number}: ${quote(removed)}.` };
  }

  return defineTool<ValidCommand>({
    name: 'MEMORY',
    description: options.archive
      ? 'Keep short facts the user wants remembered in this conversation (their setup, names, preferences); saved notes are shown to you in later answers. search also finds earlier messages of this conversation, dated.'
      : 'Keep short facts the user wants remembered in this conversation (their setup, names, preferences); saved notes are shown to you in later answers.',
    usage: MEMORY_USAGE,
    parameters: MEMORY_PARAMETERS,
    parse: parseCall,
    // Notes are the user's private data; an add or a remove changes what later answers read.
    labels: ({ action }) =>
      action === 'add' || action === 'remove' ? { private: true, persists: true } : { private: true },
    async run(command, context) {
      context.signal.throwIfAborted();
      return execute(command, context);
    },
  });
}

/** A MEMORY command that can run. */
type ValidCommand = Exclude<MemoryCommand, { action: 'invalid' }>;

/** A call's command: from the arguments object when the model wrote one, else from the text. */
function parseCall(call: CallToParse): ParseResult<ValidCommand> {
  const command = call.arguments
    ? memoryCommandFromArguments(call.arguments)
    : parseMemoryCommand(call.argument);
  return command.action === 'invalid' ? { problem: command.reason } : { input: command };
}

/** Notes read back: their text, with the outside labels any of them was kept beside. */
function readBack(text: string, notes: readonly Note[]): ToolResult {
  const { outside, origins } = notesLabels(notes);
  return outside.length === 0 ? { text } : { text, labels: { outside, origins } };
}
