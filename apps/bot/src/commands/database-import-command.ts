import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { isDeepStrictEqual } from 'node:util';
import {
  type ConversationFile,
  importNotes,
  readConversationFiles,
  readScopeFiles,
} from '@macstats/app-runtime';
import { ARCHIVE_FOLDER, createMessageArchive, type MemoryStore, type MessageArchive } from '@macstats/core';
import { parseSchedules } from '@macstats/scheduler';
import type { PostgresScheduleSource, PostgresTaskStore } from '@macstats/store-postgres';
import { createTaskStore } from '@macstats/tasks';
import { type AppConfig, paths } from '../app-config.js';
import { type CommandIo, EXIT } from '../command-io.js';
import { plural } from '../plural.js';
import { tasksDir } from './task-command.js';

/** Conversation ids named on the line of those the database kept; the rest are counted. */
const NAMED_CONVERSATIONS = 5;

/**
 * Copies each conversation the database does not have. One it has is left as the database
 * holds it (another host may have carried it on): `same` when the records agree, else `differs`.
 */
async function importConversations(files: ConversationFile[], store: MemoryStore) {
  const result = { copied: 0, same: 0, differs: [] as string[] };
  for (const { record } of files) {
    const stored = await store.load(record.id);
    if (stored === undefined) {
      await store.save(record);
      result.copied += 1;
    } else if (isDeepStrictEqual(stored, record)) result.same += 1;
    else result.differs.push(record.id);
  }
  return result;
}

/** How many schedules a document lists, or undefined when it is not a usable schedules file. */
function scheduleCount(text: string): number | undefined {
  if (!parseSchedules(text).usable) return undefined;
  return (JSON.parse(text) as { schedules: unknown[] }).schedules.length;
}

/**
 * Loads `schedules.json` into the table only while the table has no schedules: one line saying
 * what was done, or why the file was left.
 */
async function importScheduleFile(
  file: string,
  source: Pick<PostgresScheduleSource, 'read' | 'import'>,
): Promise<{ copied: boolean; line: string }> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT')
      return { copied: false, line: 'schedules: none (no schedules.json)' };
    throw error;
  }
  const parsed = parseSchedules(text);
  if (!parsed.usable)
    return {
      copied: false,
      line: `schedules: ${file} left, it is not a usable schedules file (${parsed.errors[0]})`,
    };
  const mine = scheduleCount(text) ?? 0;
  if (mine === 0) return { copied: false, line: 'schedules: none (schedules.json lists none)' };
  const stored = await source.read();
  const theirs = stored === undefined ? 0 : scheduleCount(stored);
  if (theirs !== 0) {
    if (
      stored !== undefined &&
      theirs !== undefined &&
      isDeepStrictEqual(JSON.parse(stored), JSON.parse(text))
    )
      return { copied: false, line: `schedules: ${plural(mine, 'schedule')} already in the database` };
    return {
      copied: false,
      line: `schedules: ${file} left, the database already has ${theirs === undefined ? 'a schedules document' : plural(theirs, 'schedule')}; \`macstats schedules import ${file}\` replaces them`,
    };
  }
  const { schedules, errors } = await source.import(text);
  // Entries with errors are copied as they are: the scheduler skips them, `macstats schedules` lists why.
  const broken = errors.length > 0 ? ` (and ${errors.length} with errors, skipped until fixed)` : '';
  return { copied: true, line: `schedules: ${plural(schedules, 'schedule')}${broken} copied from ${file}` };
}

/**
 * `macstats database import`: copies what this host kept in files under `MACSTATS_HOME` into
 * the database of `DATABASE_URL`: the MEMORY notes of every scope (merged: a note whose text
 * the scope has is not added again), the conversations the database does not have,
 * `schedules.json` while the table has no schedules, and the task files whose ids it does not have. It never changes the files, and a second
 * run copies nothing. A corrupt notes or conversation file is skipped with a line naming it.
 * Without `DATABASE_URL` it says so and exits 2.
 */
export async function databaseImportCommand(config: AppConfig, io: CommandIo): Promise<number> {
  if (!config.databaseUrl) {
    io.err(
      `Nothing to import into: DATABASE_URL is not set. Set it to the PostgreSQL your bot hosts share and run this again to copy ${config.home} into it.`,
    );
    return EXIT.usage;
  }
  // Loaded on demand: commands without a database do not pay for the client.
  const { connectPostgres } = await import('@macstats/store-postgres');
  const database = await connectPostgres({ url: config.databaseUrl, logger: io.logger, maxConnections: 2 });
  try {
    // A running scheduler would read and write the schedules while they are copied in.
    const holder = await database.leaseHolder();
    if (holder) {
      io.err(
        `Not imported: a bot leads the scheduler on ${database.database} (${holder.hostname}, pid ${holder.pid}, since ${holder.acquiredAt}); stop every bot on this database, then run macstats database import again.`,
      );
      return EXIT.failed;
    }
    const where = paths(config);
    const [scopeFiles, conversationFiles] = await Promise.all([
      readScopeFiles(where.memory),
      readConversationFiles(where.sessions),
    ]);
    for (const { file, reason } of [...scopeFiles.skipped, ...conversationFiles.skipped])
      io.err(`skipped ${file}: ${reason}`);

    const notes = await importNotes(scopeFiles.kept, database.noteBackend(), io.logger);
    const conversations = await importConversations(conversationFiles.kept, database.memoryStore());
    const schedules = await importScheduleFile(where.schedules, database.schedulerStores().source);
    const tasks = await importTasks(tasksDir(config), database.taskStore());
    const archived = await importArchive(
      createMessageArchive({ dir: join(where.sessions, ARCHIVE_FOLDER), logger: io.logger }),
      database.messageArchive(),
    );
    for (const problem of tasks.problems) io.err(`skipped ${problem}`);

    io.out(
      `Copied ${config.home} into PostgreSQL at ${database.database} (the files are left as they were):`,
    );
    io.out(
      `  MEMORY notes: ${plural(notes.copied, 'note')} copied into ${plural(notes.scopes, 'scope')}` +
        `, ${notes.present} already there` +
        (notes.pruned > 0
          ? `, ${plural(notes.pruned, 'older note')} pruned to keep the scopes within their budget`
          : '') +
        (notes.left.length > 0 ? `, ${notes.left.length} left:` : ''),
    );
    for (const line of notes.left) io.out(`    ${line}`);
    io.out(
      `  conversations: ${conversations.copied} copied, ${conversations.same} already there` +
        (conversations.differs.length > 0
          ? `, ${conversations.differs.length} kept as the database has ${conversations.differs.length === 1 ? 'it' : 'them'}: ${namedIds(conversations.differs)}`
          : ''),
    );
    io.out(
      `  archived messages: ${plural(archived.copied, 'message')} of ${plural(archived.conversations, 'conversation')} copied` +
        `, ${plural(archived.present, 'conversation')} already there`,
    );
    io.out(`  ${schedules.line}`);
    io.out(
      `  tasks: ${tasks.copied} copied, ${tasks.present} already there` +
        (tasks.running > 0
          ? ` (${plural(tasks.running, 'was', 'were')} running: the first bot on the database resumes ${tasks.running === 1 ? 'it' : 'them'} at the step it was on)`
          : ''),
    );
    return EXIT.ok;
  } finally {
    await database.close();
  }
}

/**
 * Copies each conversation's archived messages the database has none of (a conversation it has
 * messages of is left as it is, so a second run copies nothing).
 */
async function importArchive(files: MessageArchive, database: MessageArchive) {
  const result = { copied: 0, conversations: 0, present: 0 };
  for (const id of await files.conversations()) {
    if ((await database.read(id)).length > 0) {
      result.present += 1;
      continue;
    }
    const messages = (await files.read(id)).map(({ seq: _seq, ...message }) => message);
    await database.append(id, messages);
    result.copied += messages.length;
    result.conversations += 1;
  }
  return result;
}

/** Copies each task file whose id the database does not have, with its steps and pending posts. */
async function importTasks(dir: string, store: Pick<PostgresTaskStore, 'import'>) {
  const { tasks, problems } = await createTaskStore({ dir }).list();
  const result = { copied: 0, present: 0, running: 0, problems };
  for (const task of tasks) {
    if (await store.import(task)) {
      result.copied += 1;
      if (task.state === 'running') result.running += 1;
    } else result.present += 1;
  }
  return result;
}

function namedIds(ids: string[]): string {
  const named = ids.slice(0, NAMED_CONVERSATIONS).join(', ');
  return ids.length > NAMED_CONVERSATIONS ? `${named} and ${ids.length - NAMED_CONVERSATIONS} more` : named;
}
