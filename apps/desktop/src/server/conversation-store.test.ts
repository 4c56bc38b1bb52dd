import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type ChatTurn, createConversationStore } from './conversation-store.js';

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'conversations-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

const turn = (id: string, status: ChatTurn['status'] = 'done'): ChatTurn => ({
  id,
  question: `q ${id}`,
  askedAt: 1,
  status,
  draft: status === 'running' ? 'half an ans' : '',
  tools: [],
  ...(status === 'done' ? { answer: `a ${id}` } : {}),
});

describe('the conversation store', () => {
  it('reads an unknown conversation as empty', async () => {
    expect(await createConversationStore(dir).load('new')).toEqual({ id: 'new', turns: [] });
  });

  it('saves a conversation that a new store (a restarted dashboard) reads back', async () => {
    await createConversationStore(dir).save({ id: 'c1', turns: [turn('t1')] });
    expect((await createConversationStore(dir).load('c1')).turns).toEqual([turn('t1')]);
  });

  it('reads a turn cut short by a restart as stopped, keeping what was streamed', async () => {
    await createConversationStore(dir).save({ id: 'c2', turns: [turn('t1', 'running')] });
    const [loaded] = (await createConversationStore(dir).load('c2')).turns;
    expect(loaded).toMatchObject({ status: 'stopped', answer: 'half an ans', draft: '' });
  });

  it('keeps only the newest turns', async () => {
    const store = createConversationStore(dir, { maxTurns: 2 });
    await store.save({ id: 'c3', turns: [turn('a'), turn('b'), turn('c')] });
    const saved = JSON.parse(readFileSync(join(dir, 'c3.json'), 'utf8'));
    expect(saved.turns.map((item: ChatTurn) => item.id)).toEqual(['b', 'c']);
  });

  it('starts afresh over a file that is not JSON', async () => {
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, 'c4.json'), '{"turns": [');
    expect(await createConversationStore(dir).load('c4')).toEqual({ id: 'c4', turns: [] });
  });
});

describe('deleting from the conversation store', () => {
  it('removes the file and forgets the cached transcript', async () => {
    const store = createConversationStore(dir);
    await store.save({ id: 'gone', turns: [turn('t1')] });
    expect(await store.remove('gone')).toBe(true);
    expect(existsSync(join(dir, 'gone.json'))).toBe(false);
    expect(await store.load('gone')).toEqual({ id: 'gone', turns: [] });
  });

  it('says when there was nothing to delete', async () => {
    expect(await createConversationStore(dir).remove('never')).toBe(false);
  });

  it('deletes after a save still under way, so the save cannot bring the file back', async () => {
    const store = createConversationStore(dir);
    const saving = store.save({ id: 'race', turns: [turn('t1')] });
    const removed = store.remove('race');
    await saving;
    expect(await removed).toBe(true);
    expect(existsSync(join(dir, 'race.json'))).toBe(false);
  });
});
