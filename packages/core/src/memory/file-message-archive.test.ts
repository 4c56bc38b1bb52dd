import { appendFile, mkdtemp, readFile, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type Logger, silentLogger } from '../util/logger.js';
import { archiveFileName, createFileMessageArchive } from './file-message-archive.js';

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'macstats-archive-'));
});
afterEach(() => rm(dir, { recursive: true, force: true }));

const said = (text: string, at = 1_000) => ({ speaker: 'alice', text, at });

function recordingLogger(): Logger & { warnings: string[] } {
  const warnings: string[] = [];
  return { ...silentLogger, warnings, warn: (_details, message) => warnings.push(message ?? '') };
}

describe('the file message archive', () => {
  it('keeps messages verbatim with their labels in a 0600 file in a 0700 folder', async () => {
    const archive = createFileMessageArchive(join(dir, 'archive'), silentLogger);
    await archive.append('c', [
      said('  two  spaces\nand a line  '),
      { ...said('read a page'), outside: true, origins: ['https://x.example'] },
    ]);
    const messages = await createFileMessageArchive(join(dir, 'archive'), silentLogger).read('c');
    expect(messages.map((message) => message.text)).toEqual(['  two  spaces\nand a line  ', 'read a page']);
    expect(messages[1]).toMatchObject({ outside: true, origins: ['https://x.example'] });
    expect((await stat(join(dir, 'archive'))).mode & 0o777).toBe(0o700);
    expect((await stat(join(dir, 'archive', archiveFileName('c')))).mode & 0o777).toBe(0o600);
  });

  it('reads only the messages after a seq', async () => {
    const archive = createFileMessageArchive(dir, silentLogger);
    const [first] = await archive.append('c', [said('one')]);
    await archive.append('c', [said('two'), said('three')]);
    expect((await archive.read('c', first?.seq)).map((message) => message.text)).toEqual(['two', 'three']);
  });

  it('sees what another process appended', async () => {
    const mine = createFileMessageArchive(dir, silentLogger);
    const theirs = createFileMessageArchive(dir, silentLogger);
    await mine.append('c', [said('one')]);
    expect(await mine.read('c')).toHaveLength(1);
    await theirs.append('c', [said('two')]);
    expect((await mine.read('c')).map((message) => message.seq)).toEqual([1, 2]);
  });

  it('loses only the last message of a file cut short, says so once, and appends after it', async () => {
    const writer = createFileMessageArchive(dir, silentLogger);
    await writer.append('c', [said('kept'), said('also kept')]);
    await appendFile(join(dir, archiveFileName('c')), '{"seq":3,"speaker":"alice","te');
    const logger = recordingLogger();
    const reader = createFileMessageArchive(dir, logger);
    expect((await reader.read('c')).map((message) => message.text)).toEqual(['kept', 'also kept']);
    await reader.read('c');
    expect(logger.warnings).toEqual([
      'a message archive file was cut short; its last, unfinished message is lost',
    ]);
    await reader.append('c', [said('after')]);
    const fresh = await createFileMessageArchive(dir, silentLogger).read('c');
    expect(fresh.map((message) => message.text)).toEqual(['kept', 'also kept', 'after']);
  });

  it('removes one message and clears a conversation, leaving no text behind', async () => {
    const archive = createFileMessageArchive(dir, silentLogger);
    const [, secret] = await archive.append('c', [said('hello'), said('my pin is 4321')]);
    expect(await archive.remove('c', secret?.seq ?? 0)).toBe(true);
    expect(await archive.remove('c', 99)).toBe(false);
    expect(await readFile(join(dir, archiveFileName('c')), 'utf8')).not.toContain('4321');
    expect(await archive.clear('c')).toBe(1);
    expect(await archive.read('c')).toEqual([]);
  });

  it('names its conversations from the files, also after a removal rewrote one', async () => {
    const archive = createFileMessageArchive(dir, silentLogger);
    const [first] = await archive.append('discord-1', [said('one'), said('two')]);
    await archive.append('cli/../odd id', [said('three')]);
    await archive.remove('discord-1', first?.seq ?? 0);
    const fresh = createFileMessageArchive(dir, silentLogger);
    expect((await fresh.conversations()).sort()).toEqual(['cli/../odd id', 'discord-1']);
    expect((await fresh.read('discord-1')).map((message) => message.text)).toEqual(['two']);
  });

  it('prunes messages older than the retention cutoff in every conversation', async () => {
    const archive = createFileMessageArchive(dir, silentLogger);
    await archive.append('a', [said('old', 10), said('new', 100)]);
    await archive.append('b', [said('old', 10)]);
    expect(await archive.prune(50)).toBe(2);
    expect((await archive.read('a')).map((message) => message.text)).toEqual(['new']);
    expect(await archive.read('b')).toEqual([]);
  });
});
