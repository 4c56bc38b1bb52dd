import { mkdtemp, readdir, rm, utimes, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { silentLogger } from '../util/logger.js';
import { conversationFileName, createFileMemoryStore } from './file-memory-store.js';

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'macstats-store-'));
});
afterEach(() => rm(dir, { recursive: true, force: true }));

const record = (id: string) => ({ id, summary: null, turns: [], updatedAt: Date.now() });

describe('the file store sweep', () => {
  it('deletes the conversation files last written before the cutoff and keeps the rest', async () => {
    const store = createFileMemoryStore(dir, silentLogger);
    await store.save(record('old'));
    await store.save(record('new'));
    const twoDaysAgo = new Date(Date.now() - 2 * 24 * 3600 * 1000);
    await utimes(join(dir, conversationFileName('old')), twoDaysAgo, twoDaysAgo);
    const aside = `${conversationFileName('older')}.corrupt-1`;
    await writeFile(join(dir, aside), 'not json');
    await writeFile(join(dir, 'notes.txt'), 'mine');
    await utimes(join(dir, aside), twoDaysAgo, twoDaysAgo);
    await utimes(join(dir, 'notes.txt'), twoDaysAgo, twoDaysAgo);

    expect(await store.sweep?.(Date.now() - 24 * 3600 * 1000)).toBe(1);
    expect((await readdir(dir)).sort()).toEqual([aside, conversationFileName('new'), 'notes.txt'].sort());
    expect(await store.load('old')).toBeUndefined();
    expect(await store.load('new')).toMatchObject({ id: 'new' });
  });

  it('sweeps nothing from a folder that does not exist yet', async () => {
    const store = createFileMemoryStore(join(dir, 'missing'), silentLogger);
    expect(await store.sweep?.(Date.now())).toBe(0);
  });
});
