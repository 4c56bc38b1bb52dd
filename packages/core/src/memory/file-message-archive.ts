import { createHash } from 'node:crypto';
import { appendFile, mkdir, open, readdir, rm, stat, truncate } from 'node:fs/promises';
import { join } from 'node:path';
import writeFileAtomic from 'write-file-atomic';
import type { Logger } from '../util/logger.js';
import { type ArchivedMessage, isArchivedMessage, type MessageArchive } from './message-archive.js';

/** The archive file of a conversation: the id is hashed, so no id can name a path outside the folder. */
export function archiveFileName(id: string): string {
  return `messages-${createHash('sha256').update(id).digest('hex').slice(0, 40)}.jsonl`;
}

const ARCHIVE_FILE = /^messages-[0-9a-f]{40}\.jsonl$/;

/** The first line of a file: which conversation it holds. */
interface Header {
  conversation: string;
}

function isHeader(value: unknown): value is Header {
  return typeof value === 'object' && value !== null && typeof (value as Header).conversation === 'string';
}

const headerLine = (conversation: string | undefined) =>
  conversation === undefined ? '' : `${JSON.stringify({ conversation })}\n`;

/** What this process has read of one file. */
interface FileState {
  /** The conversation, from the file's first line (`{"conversation": "<id>"}`). */
  conversation?: string;
  messages: ArchivedMessage[];
  /** Bytes read and parsed: every complete line before this offset. */
  offset: number;
  /** Bytes after `offset` that end in no newline: a line cut short (or still being written). */
  partial: boolean;
  /** Whether the cut-short line was reported already. */
  reported: boolean;
}

/**
 * An archive of one JSON Lines file per conversation under `dir` (folder 700, files 600). Appends
 * add whole lines; removals rewrite the file atomically. Each file is read once and then only its
 * new bytes, so recall costs a `stat` per answer. A line cut short (a crash mid-append) is left out
 * with one logged sentence and cut off before the next append, so only that message is lost.
 */
export function createFileMessageArchive(dir: string, logger: Logger): MessageArchive {
  const states = new Map<string, FileState>();
  const queues = new Map<string, Promise<unknown>>();
  let ready: Promise<unknown> | undefined;
  const ensureDir = () => {
    ready ??= mkdir(dir, { recursive: true, mode: 0o700 }).catch((error) => {
      ready = undefined;
      throw error;
    });
    return ready;
  };

  /** Runs `work` after the file's earlier work, so one process never interleaves its own writes. */
  function serial<T>(file: string, work: () => Promise<T>): Promise<T> {
    const run = (queues.get(file) ?? Promise.resolve()).then(work, work);
    const settled = run.catch(() => {});
    queues.set(file, settled);
    void settled.then(() => {
      if (queues.get(file) === settled) queues.delete(file);
    });
    return run;
  }

  /** Brings the file's state up to date with what is on disk, reading only bytes not read yet. */
  async function refresh(file: string): Promise<FileState> {
    let state = states.get(file);
    let size: number;
    try {
      size = (await stat(file)).size;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
      state = { messages: [], offset: 0, partial: false, reported: false };
      states.set(file, state);
      return state;
    }
    // Smaller than what was read: rewritten by a removal elsewhere; read it again from the start.
    if (!state || size < state.offset) state = { messages: [], offset: 0, partial: false, reported: false };
    states.set(file, state);
    if (size === state.offset) {
      state.partial = false;
      return state;
    }
    await readNewLines(file, size, state, logger);
    return state;
  }

  /** Every archive file in the folder (none when it does not exist yet). */
  async function archiveFiles(): Promise<string[]> {
    try {
      return (await readdir(dir)).filter((entry) => ARCHIVE_FILE.test(entry)).map((name) => join(dir, name));
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return [];
      throw error;
    }
  }

  /** Replaces the file with `messages` (temp file and rename: a reader sees the old or the new). */
  async function rewrite(
    file: string,
    conversation: string | undefined,
    messages: ArchivedMessage[],
  ): Promise<void> {
    if (messages.length === 0) {
      await rm(file, { force: true });
      states.delete(file);
      return;
    }
    const text =
      headerLine(conversation) + messages.map((message) => `${JSON.stringify(message)}\n`).join('');
    await writeFileAtomic(file, text, { mode: 0o600 });
    states.set(file, {
      ...(conversation === undefined ? {} : { conversation }),
      messages,
      offset: Buffer.byteLength(text),
      partial: false,
      reported: false,
    });
  }

  return {
    append: (id, messages) => {
      const file = join(dir, archiveFileName(id));
      return serial(file, async () => {
        await ensureDir();
        const state = await refresh(file);
        // A line cut short would swallow the next one: cut it off (it was reported when read).
        if (state.partial) await truncate(file, state.offset);
        let seq = state.messages.at(-1)?.seq ?? 0;
        const added = messages.map((message) => ({ ...message, seq: ++seq }) as ArchivedMessage);
        if (added.length === 0) return [];
        // One write of whole lines, so a crash can cut at most the last of them short. A new
        // file opens with the conversation's id: the file name is a hash of it.
        const header = state.offset === 0 ? headerLine(id) : '';
        await appendFile(file, header + added.map((message) => `${JSON.stringify(message)}\n`).join(''), {
          mode: 0o600,
        });
        await refresh(file);
        return structuredClone(added);
      });
    },
    read: async (id, after = 0) => {
      const file = join(dir, archiveFileName(id));
      const { messages } = await serial(file, () => refresh(file));
      // Seqs grow along the file: find the first one past `after` from the end, where new ones are.
      let start = messages.length;
      while (start > 0 && (messages[start - 1]?.seq ?? 0) > after) start--;
      return messages.slice(start);
    },
    remove: (id, seq) => {
      const file = join(dir, archiveFileName(id));
      return serial(file, async () => {
        const { messages } = await refresh(file);
        const kept = messages.filter((message) => message.seq !== seq);
        if (kept.length === messages.length) return false;
        await rewrite(file, id, kept);
        return true;
      });
    },
    clear: (id) => {
      const file = join(dir, archiveFileName(id));
      return serial(file, async () => {
        const { messages } = await refresh(file);
        await rm(file, { force: true });
        states.delete(file);
        return messages.length;
      });
    },
    conversations: async () => {
      const ids: string[] = [];
      for (const file of await archiveFiles()) {
        const { conversation, messages } = await serial(file, () => refresh(file));
        if (conversation !== undefined && messages.length > 0) ids.push(conversation);
      }
      return ids;
    },
    prune: async (cutoff) => {
      let pruned = 0;
      for (const file of await archiveFiles()) {
        pruned += await serial(file, async () => {
          const { messages, conversation } = await refresh(file);
          const kept = messages.filter((message) => message.at >= cutoff);
          if (kept.length < messages.length) await rewrite(file, conversation, kept);
          return messages.length - kept.length;
        });
      }
      return pruned;
    },
  };
}

/** Reads the bytes of `file` past `state.offset` (up to `size`) into `state`, whole lines only. */
async function readNewLines(file: string, size: number, state: FileState, logger: Logger): Promise<void> {
  const handle = await open(file, 'r');
  let bytes: Buffer;
  try {
    bytes = Buffer.alloc(size - state.offset);
    await handle.read(bytes, 0, bytes.length, state.offset);
  } finally {
    await handle.close();
  }
  const end = bytes.lastIndexOf(0x0a) + 1;
  let skipped = 0;
  for (const line of bytes.subarray(0, end).toString('utf8').split('\n')) {
    if (line.trim() === '') continue;
    let parsed: unknown;
    try {
      parsed = JSON.parse(line);
    } catch {
      parsed = undefined;
    }
    if (isArchivedMessage(parsed)) state.messages.push(parsed);
    else if (isHeader(parsed)) state.conversation = parsed.conversation;
    else skipped++;
  }
  if (skipped > 0)
    logger.warn({ file, lines: skipped }, 'unreadable lines in a message archive were left out');
  state.offset += end;
  state.partial = end < bytes.length;
  if (state.partial && !state.reported) {
    state.reported = true;
    logger.warn({ file }, 'a message archive file was cut short; its last, unfinished message is lost');
  }
}
