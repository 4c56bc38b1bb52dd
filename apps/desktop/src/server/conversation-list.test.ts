import { mkdtempSync, readFileSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { conversationTitle, createConversationLister, summarizeConversation } from './conversation-list.js';

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'conversation-list-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

/** Writes a conversation file whose last turn ended at `finishedAt` and whose file time is `fileTime` (s). */
function writeConversation(id: string, finishedAt: number | undefined, fileTime: number): void {
  const turn = { id: 't', question: `question ${id}`, status: 'done', draft: '', tools: [] };
  const turns = [finishedAt === undefined ? turn : { ...turn, askedAt: finishedAt - 5, finishedAt }];
  writeFileSync(join(dir, `${id}.json`), JSON.stringify({ id, turns }));
  utimesSync(join(dir, `${id}.json`), fileTime, fileTime);
}

describe('a conversation title', () => {
  it('is the question on one line', () => {
    expect(conversationTitle('  How busy\n\tis  the CPU?\n')).toBe('How busy is the CPU?');
  });

  it('is cut to 80 characters with an ellipsis', () => {
    const title = conversationTitle(`${'word '.repeat(40)}end`);
    expect(Array.from(title)).toHaveLength(80);
    expect(title.endsWith('…')).toBe(true);
  });

  it('never splits a character made of two UTF-16 units', () => {
    const title = conversationTitle('🙂'.repeat(100));
    expect(title).toBe(`${'🙂'.repeat(79)}…`);
  });
});

describe('a conversation summary', () => {
  it('takes the time of the last turn, its end before its start', () => {
    const turns = [
      { question: 'a', askedAt: 1, finishedAt: 2 },
      { question: 'b', askedAt: 3 },
    ];
    expect(summarizeConversation('c', { turns })).toEqual({ id: 'c', title: 'a', turns: 2, updatedAt: 3 });
  });

  it('has no time for turns saved without one', () => {
    expect(summarizeConversation('c', { turns: [{ question: 'a' }] })?.updatedAt).toBeNull();
  });

  it('is null for JSON that is not a conversation with turns', () => {
    for (const value of [null, [], 'text', {}, { turns: [] }, { turns: 'x' }, { turns: [{ question: 1 }] }])
      expect(summarizeConversation('c', value)).toBeNull();
  });
});

describe('the conversation list', () => {
  it('lists the newest last turn first and files without times last', async () => {
    writeConversation('old', 1_000, 100);
    writeConversation('no-time', undefined, 400);
    writeConversation('new', 3_000, 200);
    writeConversation('middle', 2_000, 300);
    const { conversations } = await createConversationLister(dir)();
    expect(conversations.map((item) => item.id)).toEqual(['new', 'middle', 'old', 'no-time']);
  });

  it('reads only the most recently written files up to its limit and says it left some out', async () => {
    for (const [index, id] of ['a', 'b', 'c', 'd', 'e'].entries()) writeConversation(id, index, 100 + index);
    const { conversations, truncated } = await createConversationLister(dir, 3)();
    expect(conversations.map((item) => item.id)).toEqual(['e', 'd', 'c']);
    expect(truncated).toBe(true);
  });

  it('fills its limit past broken files, which it leaves as they were', async () => {
    writeConversation('good', 1_000, 100);
    writeFileSync(join(dir, 'broken.json'), '{"turns": [');
    utimesSync(join(dir, 'broken.json'), 200, 200);
    const { conversations, truncated } = await createConversationLister(dir, 1)();
    expect(conversations.map((item) => item.id)).toEqual(['good']);
    expect(truncated).toBe(false);
    expect(readFileSync(join(dir, 'broken.json'), 'utf8')).toBe('{"turns": [');
  });

  it('skips files that are not conversations: other names, temp files, other JSON', async () => {
    writeConversation('good', 1_000, 100);
    writeFileSync(join(dir, 'notes.txt'), 'hello');
    writeFileSync(join(dir, 'good.json.abc123.tmp'), '{}');
    writeFileSync(join(dir, 'settings.json'), '{"theme":"dark"}');
    writeFileSync(join(dir, 'has dot.json'), JSON.stringify({ turns: [{ question: 'x' }] }));
    const { conversations } = await createConversationLister(dir)();
    expect(conversations.map((item) => item.id)).toEqual(['good']);
  });

  it('reads a file again once it changed', async () => {
    const list = createConversationLister(dir);
    writeConversation('c', 1_000, 100);
    expect((await list()).conversations[0]?.title).toBe('question c');
    writeFileSync(join(dir, 'c.json'), JSON.stringify({ turns: [{ question: 'changed', finishedAt: 5 }] }));
    utimesSync(join(dir, 'c.json'), 200, 200);
    expect((await list()).conversations[0]?.title).toBe('changed');
  });

  it('is empty when the folder does not exist yet', async () => {
    expect(await createConversationLister(join(dir, 'missing'))()).toEqual({
      conversations: [],
      truncated: false,
    });
  });
});
