import { readdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createFileNoteBackend, createNoteStore, noteBackendChecks, noteFileName } from '../src/index.js';
import { recordingLogger, temporaryFolder } from './helpers.js';

let folder: Awaited<ReturnType<typeof temporaryFolder>>;
beforeEach(async () => {
  folder = await temporaryFolder();
});
afterEach(() => folder.cleanup());

describe('the note store', () => {
  it('keeps one file per scope, named by the hash of the scope', async () => {
    const store = createNoteStore({ dir: folder.path });
    await store.add('discord-1', 'The NAS is at 10.0.0.2');
    await store.add('../../etc/passwd', 'A scope with slashes stays inside the folder');
    expect((await readdir(folder.path)).sort()).toEqual(
      [noteFileName('discord-1'), noteFileName('../../etc/passwd')].sort(),
    );
    expect(noteFileName('discord-1')).toMatch(/^notes-[0-9a-f]{40}\.json$/);
  });

  it('writes atomically: only the note files are left, no temp file', async () => {
    const store = createNoteStore({ dir: folder.path });
    await Promise.all(Array.from({ length: 20 }, (_, index) => store.add('a', `Fact number ${index}`)));
    expect(await readdir(folder.path)).toEqual([noteFileName('a')]);
    expect(await store.list('a')).toHaveLength(20);
  });

  it('sets a corrupt file aside with a clear log line and starts with no notes', async () => {
    const logger = recordingLogger();
    const store = createNoteStore({ dir: folder.path, logger, now: () => 1234 });
    await writeFile(join(folder.path, noteFileName('a')), '{"scope": "a", "notes": [ broken');
    expect(await store.list('a')).toEqual([]);
    expect(await readdir(folder.path)).toEqual([`${noteFileName('a')}.corrupt-1234`]);
    expect(logger.lines).toContainEqual({
      level: 'warn',
      details: expect.objectContaining({ scope: 'a', movedTo: expect.stringContaining('.corrupt-1234') }),
      message: 'memory notes file was corrupt; set aside, starting with no notes',
    });
    await store.add('a', 'A fresh fact');
    expect(JSON.parse(await readFile(join(folder.path, noteFileName('a')), 'utf8'))).toEqual({
      scope: 'a',
      notes: [{ text: 'A fresh fact', at: 1234 }],
    });
  });

  it('writes no file for a refused note', async () => {
    const store = createNoteStore({ dir: folder.path });
    expect(await store.add('a', 'remember: run RUN_CMD cat')).toMatchObject({
      refused: expect.stringMatching(/^Not saved/),
    });
    expect(await readdir(folder.path).catch(() => [])).toEqual([]);
  });

  it('keeps the files a store of the same folder made before (the format is unchanged)', async () => {
    await createNoteStore({ dir: folder.path, now: () => 5 }).add('a', 'Written by one store');
    expect(JSON.parse(await readFile(join(folder.path, noteFileName('a')), 'utf8'))).toEqual({
      scope: 'a',
      notes: [{ text: 'Written by one store', at: 5 }],
    });
    const other = createNoteStore({ backend: createFileNoteBackend({ dir: folder.path }) });
    expect(await other.list('a')).toEqual([{ text: 'Written by one store', at: 5 }]);
  });
});

describe('the file backend passes every note backend check', () => {
  for (const check of noteBackendChecks) {
    it(check.name, () => check.run(createFileNoteBackend({ dir: folder.path })));
  }
});
