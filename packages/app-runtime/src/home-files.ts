import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { type ConversationRecord, isConversationRecord } from '@macstats/core';
import { isNoteList, type Note, noteFileName } from '@macstats/tools-memory';

/** The notes file of one MEMORY scope, as the file backend wrote it. */
export interface ScopeFile {
  file: string;
  scope: string;
  notes: Note[];
}

/** A conversation file, as core's file memory store wrote it. */
export interface ConversationFile {
  file: string;
  record: ConversationRecord;
}

/** A file left out, and why, in a few words. */
export interface SkippedFile {
  file: string;
  reason: string;
}

/** The names the stores write (not the `.corrupt-<time>` copies they set aside, nor temp files). */
const NOTES_FILE = /^notes-[0-9a-f]{40}\.json$/;
const CONVERSATION_FILE = /^conversation-[0-9a-f]{40}\.json$/;

/**
 * Reads every JSON file in `dir` whose name matches `pattern`, oldest name first, and hands
 * each parsed value to `accept`, which returns what it keeps or a reason to skip. Nothing is
 * written or renamed: unlike the stores' own reads, which set a corrupt file aside, this only
 * looks, so an import leaves the files exactly as they were.
 */
async function readJsonFiles<T>(
  dir: string,
  pattern: RegExp,
  accept: (value: unknown, name: string) => T | string,
): Promise<{ kept: T[]; skipped: SkippedFile[] }> {
  let names: string[];
  try {
    names = await readdir(dir);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return { kept: [], skipped: [] };
    throw error;
  }
  const kept: T[] = [];
  const skipped: SkippedFile[] = [];
  for (const name of names.filter((entry) => pattern.test(entry)).sort()) {
    const file = join(dir, name);
    let value: unknown;
    try {
      value = JSON.parse(await readFile(file, 'utf8'));
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      skipped.push({ file, reason: code ? `it could not be read (${code})` : 'it is not valid JSON' });
      continue;
    }
    const result = accept(value, name);
    if (typeof result === 'string') skipped.push({ file, reason: result });
    else kept.push(result);
  }
  return { kept, skipped };
}

/**
 * The MEMORY notes under `dir` (`$MACSTATS_HOME/memory`), one entry per scope. A file must hold
 * `{ scope, notes }` and be the file the backend names for that scope (`noteFileName`), as the
 * file backend would read nothing else.
 */
export function readScopeFiles(dir: string): Promise<{ kept: ScopeFile[]; skipped: SkippedFile[] }> {
  return readJsonFiles(dir, NOTES_FILE, (value, name): ScopeFile | string => {
    const body = (typeof value === 'object' && value !== null ? value : {}) as {
      scope?: unknown;
      notes?: unknown;
    };
    if (typeof body.scope !== 'string' || !isNoteList(body.notes))
      return 'it is not a MEMORY notes file ({ scope, notes: [{ text, at }] })';
    if (noteFileName(body.scope) !== name)
      return `its scope "${body.scope}" belongs in ${noteFileName(body.scope)}`;
    return { file: join(dir, name), scope: body.scope, notes: body.notes };
  });
}

/** The conversations under `dir` (`$MACSTATS_HOME/sessions`), each a record core's memory reads. */
export function readConversationFiles(
  dir: string,
): Promise<{ kept: ConversationFile[]; skipped: SkippedFile[] }> {
  return readJsonFiles(dir, CONVERSATION_FILE, (value, name): ConversationFile | string => {
    const id = (value as { id?: unknown } | null)?.id;
    if (typeof id !== 'string' || !isConversationRecord(value, id))
      return 'it is not a conversation record ({ id, summary, turns, updatedAt })';
    return { file: join(dir, name), record: value };
  });
}
