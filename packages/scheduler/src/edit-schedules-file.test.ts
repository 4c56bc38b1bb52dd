import { readFile, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { temporaryFolder } from '../test/helpers.js';
import { editSchedulesFile } from './edit-schedules-file.js';

let folder: { path: string; cleanup: () => Promise<void> };
let file: string;
beforeEach(async () => {
  folder = await temporaryFolder();
  file = join(folder.path, 'schedules.json');
});
afterEach(() => folder.cleanup());

const read = async () => JSON.parse(await readFile(file, 'utf8'));

describe('editSchedulesFile', () => {
  it('creates the file when it does not exist', async () => {
    await editSchedulesFile(file, (document) => document.schedules.push({ id: 'a' }));
    expect(await read()).toEqual({ schedules: [{ id: 'a' }] });
  });

  it('keeps fields and entries it does not touch, including ones the scheduler would reject', async () => {
    await writeFile(
      file,
      JSON.stringify({ comment: 'mine', schedules: [{ id: 'odd', every: 'tuesday', task: 'x' }] }),
    );
    await editSchedulesFile(file, (document) => document.schedules.push({ id: 'b' }));
    expect(await read()).toEqual({
      comment: 'mine',
      schedules: [{ id: 'odd', every: 'tuesday', task: 'x' }, { id: 'b' }],
    });
  });

  it('starts over when the file changes while the edit is being prepared, keeping both edits', async () => {
    await writeFile(file, JSON.stringify({ schedules: [] }));
    let attempts = 0;
    await editSchedulesFile(file, async (document) => {
      attempts += 1;
      // Someone saves the file from an editor while this edit is in progress.
      if (attempts === 1) await writeFile(file, JSON.stringify({ schedules: [{ id: 'from-editor' }] }));
      document.schedules.push({ id: 'from-tool' });
    });
    expect(attempts).toBe(2);
    expect((await read()).schedules).toEqual([{ id: 'from-editor' }, { id: 'from-tool' }]);
  });

  it('loses no edit when many run at once in one process', async () => {
    await Promise.all(
      Array.from({ length: 10 }, (_, index) =>
        editSchedulesFile(file, (document) => document.schedules.push({ id: `n${index}` })),
      ),
    );
    expect((await read()).schedules.map((entry: { id: string }) => entry.id).sort()).toEqual(
      Array.from({ length: 10 }, (_, index) => `n${index}`).sort(),
    );
  });

  it('refuses to touch a file that is not valid JSON and leaves it as it was', async () => {
    await writeFile(file, '{"schedules": [');
    await expect(
      editSchedulesFile(file, (document) => document.schedules.push({ id: 'x' })),
    ).rejects.toMatchObject({
      code: 'SCHEDULES_FILE_INVALID',
      message: expect.stringMatching(/not valid JSON.*it was not changed\.$/),
    });
    expect(await readFile(file, 'utf8')).toBe('{"schedules": [');
  });

  it('does not rewrite the file when the change leaves the document as it was', async () => {
    const original = '{ "schedules" : [ ] }';
    await writeFile(file, original);
    const before = await stat(file);
    await editSchedulesFile(file, () => 'nothing to do');
    expect(await readFile(file, 'utf8')).toBe(original);
    expect((await stat(file)).ino).toBe(before.ino);
  });
});
