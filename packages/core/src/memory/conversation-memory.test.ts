import { describe, expect, it } from 'vitest';
import { silentLogger } from '../util/logger.js';
import { ConversationMemory } from './conversation-memory.js';
import { createRecall } from './recall/recall.js';
import { createMemoryStore, createMessageArchive } from './stores.js';
import { capSummary } from './summary-prompt.js';

/** A fresh in-process archive with its recall, as `createAgent` makes them. */
function archived() {
  const archive = createMessageArchive();
  return { archive, recall: createRecall({ archive, logger: silentLogger }) };
}

function setup() {
  let running = 0;
  let most = 0;
  const releases: Array<(text: string) => void> = [];
  const memory = new ConversationMemory({
    store: createMemoryStore(),
    ...archived(),
    keepTurns: 2,
    ttlMs: 60_000,
    summaryChars: 600,
    summaryHardCapChars: 650,
    now: () => new Date('2026-01-01T00:00:00Z'),
    logger: silentLogger,
    summarise: (messages, signal) =>
      new Promise<string>((resolve, reject) => {
        running++;
        most = Math.max(most, running);
        signal.addEventListener('abort', () => {
          running--;
          reject(signal.reason);
        });
        releases.push((text) => {
          running--;
          resolve(`${text} (${messages[1]?.content.match(/User: /g)?.length} turns)`);
        });
      }),
  });
  return { memory, releases, most: () => most, running: () => running };
}

async function settle() {
  for (let round = 0; round < 5; round++) await new Promise((resolve) => setImmediate(resolve));
}

describe('ConversationMemory', () => {
  it('runs one summary at a time per conversation and folds later turns in the next one', async () => {
    const { memory, releases, most } = setup();
    for (const question of ['1', '2', '3']) await memory.recordTurn('c', question, `a${question}`);
    await settle();
    for (const question of ['4', '5', '6']) await memory.recordTurn('c', question, `a${question}`);
    await settle();
    expect(releases).toHaveLength(1);
    releases[0]?.('first');
    await settle();
    expect(releases).toHaveLength(2);
    releases[1]?.('second');
    await memory.idle();
    expect(most()).toBe(1);
    expect(await memory.context('c')).toEqual({
      summary: 'second (3 turns)',
      summaryOutside: false,
      turns: [
        { question: '5', answer: 'a5', at: expect.any(Number) },
        { question: '6', answer: 'a6', at: expect.any(Number) },
      ],
      recalled: [],
    });
  });

  it('summarises different conversations independently', async () => {
    const { memory, releases } = setup();
    for (const question of ['1', '2', '3']) {
      await memory.recordTurn('a', question, 'x');
      await memory.recordTurn('b', question, 'x');
    }
    await settle();
    expect(releases).toHaveLength(2);
    for (const release of releases) release('done');
    await memory.idle();
  });

  it('waits with a summary while an answer runs in any conversation, and starts it when the last one ends', async () => {
    const { memory, releases } = setup();
    const endFirst = memory.beginAnswer();
    const endSecond = memory.beginAnswer();
    for (const question of ['1', '2', '3']) await memory.recordTurn('a', question, 'x');
    await settle();
    expect(releases).toHaveLength(0);
    endFirst();
    endFirst();
    await settle();
    expect(releases).toHaveLength(0);
    endSecond();
    await settle();
    expect(releases).toHaveLength(1);
    releases[0]?.('done');
    await memory.idle();
    expect((await memory.context('a')).summary).toBe('done (1 turns)');
  });

  it('aborts the summaries under way when an answer starts, and runs them again after it', async () => {
    const { memory, releases, running } = setup();
    for (const question of ['1', '2', '3']) await memory.recordTurn('a', question, 'x');
    await settle();
    expect(running()).toBe(1);
    const endAnswer = memory.beginAnswer();
    await settle();
    expect(running()).toBe(0);
    endAnswer();
    await settle();
    expect(running()).toBe(1);
    expect(releases).toHaveLength(2);
    releases[1]?.('again');
    await memory.idle();
    expect((await memory.context('a')).summary).toBe('again (1 turns)');
  });

  it('sweeps conversations untouched for the TTL out of memory and the store', async () => {
    let now = new Date('2026-01-01T00:00:00Z');
    const store = createMemoryStore();
    const memory = new ConversationMemory({
      store,
      ...archived(),
      keepTurns: 2,
      ttlMs: 60_000,
      summaryChars: 600,
      summaryHardCapChars: 650,
      now: () => now,
      logger: silentLogger,
      summarise: async () => 'unused',
    });
    await memory.recordTurn('old', 'q', 'a');
    now = new Date('2026-01-01T00:01:30Z');
    await memory.recordTurn('new', 'q', 'a');
    await memory.idle();
    expect(await memory.sweep()).toBe(1);
    expect(await store.load('old')).toBeUndefined();
    expect(await store.load('new')).toMatchObject({ id: 'new' });
    expect((await memory.context('new')).turns).toHaveLength(1);
  });

  it('does not summarise while the turns fit', async () => {
    const { memory, releases } = setup();
    await memory.recordTurn('c', '1', 'a');
    await memory.recordTurn('c', '2', 'b');
    await settle();
    expect(releases).toHaveLength(0);
  });
});

describe('capSummary', () => {
  it('keeps a summary up to the hard cap', () => {
    expect(capSummary('a'.repeat(650), 600, 650)).toHaveLength(650);
  });

  it('cuts a summary over the hard cap to the target at a word boundary', () => {
    const cut = capSummary('word '.repeat(200), 600, 650);
    expect(cut.length).toBeLessThanOrEqual(600);
    expect(cut).toMatch(/word…$/);
  });

  it('cuts a summary without spaces hard', () => {
    expect(capSummary('a'.repeat(700), 600, 650)).toBe(`${'a'.repeat(599)}…`);
  });
});
