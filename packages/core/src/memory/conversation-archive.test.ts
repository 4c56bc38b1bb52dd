import { describe, expect, it } from 'vitest';
import { silentLogger } from '../util/logger.js';
import { ConversationMemory } from './conversation-memory.js';
import { createRecall } from './recall/recall.js';
import { createMemoryStore, createMessageArchive } from './stores.js';

function setup(summary = 'folded', retentionMs?: number) {
  let now = new Date('2026-01-01T00:00:00Z');
  const archive = createMessageArchive();
  const memory = new ConversationMemory({
    retentionMs,
    store: createMemoryStore(),
    archive,
    recall: createRecall({ archive, logger: silentLogger }),
    keepTurns: 1,
    ttlMs: 60_000,
    summaryChars: 600,
    summaryHardCapChars: 650,
    now: () => now,
    logger: silentLogger,
    summarise: async () => summary,
  });
  return { memory, archive, later: (ms: number) => (now = new Date(now.getTime() + ms)) };
}

describe('the conversation archive', () => {
  it('keeps the turns the summary folded away, and recalls them for a question about them', async () => {
    const { memory, archive } = setup();
    await memory.recordTurn('c', 'My cat is called Tomasz.', 'A fine name.', false, [], 'alice');
    await memory.recordTurn('c', 'The weather is grey.', 'It is.');
    await memory.idle();
    const context = await memory.context('c', "What is my cat's name?");
    expect(context.summary).toBe('folded');
    expect(context.turns.map((turn) => turn.question)).toEqual(['The weather is grey.']);
    expect((await archive.read('c')).map((message) => message.speaker)).toEqual([
      'alice',
      'assistant',
      'user',
      'assistant',
    ]);
    expect(context.recalled.map((message) => message.text)).toContain('My cat is called Tomasz.');
  });

  it('starts a fresh context past the TTL but still recalls the expired messages', async () => {
    const { memory, later } = setup();
    await memory.recordTurn('c', 'The spare key is under the blue pot.', 'Noted.');
    await memory.idle();
    later(120_000);
    const context = await memory.context('c', 'Where is the spare key?');
    expect(context.turns).toEqual([]);
    expect(context.recalled.map((message) => message.text)).toContain('The spare key is under the blue pot.');
  });

  it('does not recall the recent turns already in the prompt', async () => {
    const { memory } = setup();
    await memory.recordTurn('c', 'The spare key is under the blue pot.', 'Noted.');
    await memory.idle();
    expect((await memory.context('c', 'Where is the spare key?')).recalled).toEqual([]);
  });

  it('keeps the outside label of an answer that read outside content', async () => {
    const { memory, later } = setup();
    await memory.recordTurn('c', 'What does the page say about llamas?', 'Llamas hum.', true, [
      'https://x.example',
    ]);
    await memory.idle();
    later(120_000);
    const [question, answer] = (await memory.context('c', 'llamas')).recalled;
    expect(question?.outside).toBeUndefined();
    expect(answer).toMatchObject({ outside: true, origins: ['https://x.example'] });
  });

  it('deletes archived messages past the retention when it sweeps, and keeps newer ones', async () => {
    const { memory, archive, later } = setup('folded', 7 * 86_400_000);
    await memory.recordTurn('c', 'old question', 'old answer');
    await memory.idle();
    later(10 * 86_400_000);
    await memory.recordTurn('c', 'new question', 'new answer');
    await memory.idle();
    await memory.sweep();
    expect((await archive.read('c')).map((message) => message.text)).toEqual(['new question', 'new answer']);
  });

  it('forgets the turns, the summary and every archived message, and says how many', async () => {
    const { memory, archive } = setup();
    await memory.recordTurn('c', 'one', 'a');
    await memory.recordTurn('c', 'two', 'b');
    await memory.idle();
    expect(await memory.forget('c')).toEqual({ turns: 1, summary: true, archivedMessages: 4 });
    expect(await archive.read('c')).toEqual([]);
  });
});
