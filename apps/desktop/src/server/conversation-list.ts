import { readdir, readFile, stat } from 'node:fs/promises';
import { join } from 'node:path';
import type { ConversationSummary } from '../shared/chat-types.js';
import { ID_PATTERN } from './http-helpers.js';

/** A saved conversation as the list shows it; whether it runs is known only to the chat. */
export type SavedConversation = Omit<ConversationSummary, 'running'>;

/** What {@link createConversationLister}'s function gives: newest first. */
export interface SavedConversationList {
  conversations: SavedConversation[];
  /** True when files were left unread because the list was full. */
  truncated: boolean;
}

/** Defaults of the conversation list. */
export const CONVERSATION_LIST_DEFAULTS = { limit: 200, titleChars: 80 } as const;

/** The first question as a title: one line, at most `maxChars` characters, cut with "…". */
export function conversationTitle(
  question: string,
  maxChars: number = CONVERSATION_LIST_DEFAULTS.titleChars,
): string {
  const line = question.replace(/\s+/g, ' ').trim();
  const chars = Array.from(line);
  if (chars.length <= maxChars) return line;
  return `${chars
    .slice(0, maxChars - 1)
    .join('')
    .trimEnd()}…`;
}

/** The summary of a parsed conversation file, or null when it is not a conversation with turns. */
export function summarizeConversation(id: string, value: unknown): SavedConversation | null {
  if (typeof value !== 'object' || value === null) return null;
  const turns: unknown = (value as { turns?: unknown }).turns;
  if (!Array.isArray(turns) || turns.length === 0) return null;
  const first = turns[0] as { question?: unknown } | null;
  if (typeof first?.question !== 'string') return null;
  return {
    id,
    title: conversationTitle(first.question),
    turns: turns.length,
    updatedAt: turnTime(turns[turns.length - 1]),
  };
}

/** When a turn ended, else when it was asked; null for a turn without times (older files). */
function turnTime(turn: unknown): number | null {
  const { finishedAt, askedAt } = (turn ?? {}) as { finishedAt?: unknown; askedAt?: unknown };
  if (typeof finishedAt === 'number' && Number.isFinite(finishedAt)) return finishedAt;
  if (typeof askedAt === 'number' && Number.isFinite(askedAt)) return askedAt;
  return null;
}

interface FileInfo {
  id: string;
  mtimeMs: number;
  size: number;
}

/**
 * Lists the conversations saved under `dir`, one `<id>.json` each. Only the `limit` most recently
 * written files with turns are read (a huge folder stays quick), and a file is parsed again only
 * when its time or size changed. Other files, and files that are not valid JSON, are skipped and
 * left as they are. Newest last turn first; files without times come last.
 */
export function createConversationLister(
  dir: string,
  limit: number = CONVERSATION_LIST_DEFAULTS.limit,
): () => Promise<SavedConversationList> {
  const parsed = new Map<string, { mtimeMs: number; size: number; summary: SavedConversation | null }>();

  async function summaryOf(file: FileInfo): Promise<SavedConversation | null> {
    const known = parsed.get(file.id);
    if (known && known.mtimeMs === file.mtimeMs && known.size === file.size) return known.summary;
    let summary: SavedConversation | null = null;
    try {
      summary = summarizeConversation(
        file.id,
        JSON.parse(await readFile(join(dir, `${file.id}.json`), 'utf8')),
      );
    } catch {
      // Unreadable or not JSON: not listed; the file stays for whoever wants to repair it.
    }
    parsed.set(file.id, { mtimeMs: file.mtimeMs, size: file.size, summary });
    return summary;
  }

  return async () => {
    let names: string[];
    try {
      names = await readdir(dir);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return { conversations: [], truncated: false };
      throw error;
    }
    const ids = names
      .filter((name) => name.endsWith('.json') && ID_PATTERN.test(name.slice(0, -5)))
      .map((name) => name.slice(0, -5));
    const stats = await Promise.all(
      ids.map((id) =>
        stat(join(dir, `${id}.json`)).then(
          (info): FileInfo | null => (info.isFile() ? { id, mtimeMs: info.mtimeMs, size: info.size } : null),
          () => null,
        ),
      ),
    );
    const files = stats.filter((file) => file !== null).sort((a, b) => b.mtimeMs - a.mtimeMs);
    const present = new Set(ids);
    for (const id of parsed.keys()) if (!present.has(id)) parsed.delete(id);

    const conversations: SavedConversation[] = [];
    let next = 0;
    while (conversations.length < limit && next < files.length) {
      const batch = files.slice(next, next + limit - conversations.length);
      next += batch.length;
      for (const summary of await Promise.all(batch.map(summaryOf))) if (summary) conversations.push(summary);
    }
    // Stable: equal times (and files without times) keep the newest-written-first order.
    conversations.sort((a, b) => (b.updatedAt ?? -Infinity) - (a.updatedAt ?? -Infinity) || 0);
    return { conversations, truncated: next < files.length };
  };
}
