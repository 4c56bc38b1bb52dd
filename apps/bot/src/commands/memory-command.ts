import { readFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { text as readStream } from 'node:stream/consumers';
import {
  ARCHIVE_FOLDER,
  createMessageArchive,
  type MessageArchive,
  type NewArchivedMessage,
} from '@macstats/core';
import { type AppConfig, paths } from '../app-config.js';
import { type CommandIo, EXIT } from '../command-io.js';
import { connectSharedState } from '../shared-state.js';

/** The archive the bot's agent recalls from: the database's with `DATABASE_URL`, else the files. */
async function openArchive(
  config: AppConfig,
  io: CommandIo,
): Promise<{ archive: MessageArchive; close(): Promise<void> }> {
  const shared = await connectSharedState(config, io.logger);
  return {
    archive:
      shared.messageArchive ??
      createMessageArchive({ dir: join(paths(config).sessions, ARCHIVE_FOLDER), logger: io.logger }),
    close: () => shared.close(),
  };
}

/** Why a parsed line is not a message, or the message it is. */
function messageOf(value: unknown, importedAt: number): NewArchivedMessage | string {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return 'is not a JSON object';
  const line = value as Record<string, unknown>;
  if (typeof line.speaker !== 'string' || line.speaker.trim() === '') return 'has no "speaker"';
  if (typeof line.text !== 'string') return 'has no "text"';
  let at = importedAt;
  if (line.at !== undefined) {
    at = typeof line.at === 'string' ? Date.parse(line.at) : Number.NaN;
    if (Number.isNaN(at)) return `has an "at" that is not an ISO 8601 time (${JSON.stringify(line.at)})`;
  }
  const message: NewArchivedMessage = { speaker: line.speaker, text: line.text, at };
  // Labels written by `export` come back, so outside content stays outside.
  if (line.outside === true) message.outside = true;
  if (Array.isArray(line.origins) && line.origins.every((origin) => typeof origin === 'string'))
    message.origins = line.origins as string[];
  return message;
}

/**
 * Parses JSON Lines of messages: all of them, or the one sentence that names the first bad line.
 * Blank lines are skipped; a message without `at` is dated now.
 */
export function parseMessageLines(text: string, importedAt: number): NewArchivedMessage[] | string {
  const messages: NewArchivedMessage[] = [];
  const lines = text.split('\n');
  for (const [index, raw] of lines.entries()) {
    if (raw.trim() === '') continue;
    let parsed: unknown;
    try {
      parsed = JSON.parse(raw);
    } catch {
      return `line ${index + 1} is not JSON`;
    }
    const message = messageOf(parsed, importedAt);
    if (typeof message === 'string') return `line ${index + 1} ${message}`;
    messages.push(message);
  }
  return messages;
}

/**
 * `macstats memory import <file | -> -c <conversation>`: appends the file's messages to the
 * conversation's archive, verbatim, and prints how many. A bad line refuses the whole file.
 */
export async function memoryImportCommand(
  config: AppConfig,
  io: CommandIo,
  options: { file: string; conversation: string },
): Promise<number> {
  const from = options.file === '-' ? 'standard input' : resolve(options.file);
  let text: string;
  try {
    text = options.file === '-' ? await readStream(process.stdin) : await readFile(from, 'utf8');
  } catch (error) {
    const reason = (error as NodeJS.ErrnoException).code ?? (error as Error).message;
    io.err(`Cannot import ${from}: it could not be read (${reason}). Nothing was imported.`);
    return EXIT.config;
  }
  const messages = parseMessageLines(text, Date.now());
  if (typeof messages === 'string') {
    io.err(`Cannot import ${from}: ${messages}. Nothing was imported.`);
    return EXIT.config;
  }
  const { archive, close } = await openArchive(config, io);
  try {
    await archive.append(options.conversation, messages);
  } finally {
    await close();
  }
  const count = messages.length === 1 ? '1 message' : `${messages.length.toLocaleString('en')} messages`;
  io.out(`Imported ${count} into conversation ${options.conversation}.`);
  return EXIT.ok;
}

/** `macstats memory export -c <conversation>`: the conversation's messages as JSON Lines on standard output. */
export async function memoryExportCommand(
  config: AppConfig,
  io: CommandIo,
  options: { conversation: string },
): Promise<number> {
  const { archive, close } = await openArchive(config, io);
  try {
    for (const message of await archive.read(options.conversation)) {
      const line = {
        speaker: message.speaker,
        text: message.text,
        at: new Date(message.at).toISOString(),
        ...(message.outside ? { outside: true } : {}),
        ...(message.origins ? { origins: message.origins } : {}),
      };
      io.write(`${JSON.stringify(line)}\n`);
    }
  } finally {
    await close();
  }
  return EXIT.ok;
}
