import { createAgent, searchArchive } from '@macstats/core';
import { type FakeOllama, startFakeOllama, startTestPostgres, type TestPostgres } from '@macstats/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectPostgres, type PostgresStore } from '../src/index.js';

let server: TestPostgres;
let hostA: PostgresStore;
let hostB: PostgresStore;
let fake: FakeOllama;
beforeAll(async () => {
  server = await startTestPostgres();
  const url = await server.createDatabase('archive');
  [hostA, hostB] = await Promise.all([connectPostgres({ url }), connectPostgres({ url })]);
  fake = await startFakeOllama({ replies: ['Under the blue pot.'] });
});
afterAll(async () => {
  await fake.close();
  await Promise.all([hostA.close(), hostB.close()]);
  await server.close();
});

const said = (text: string, at = 1_000) => ({ speaker: 'alice', text, at });

describe('the PostgreSQL message archive', () => {
  it('keeps messages verbatim with their labels, for every host, in order', async () => {
    const [first] = await hostA
      .messageArchive()
      .append('c1', [
        said('  one\ntwo  '),
        { ...said('a page said so'), outside: true, origins: ['https://x.example'] },
      ]);
    const read = await hostB.messageArchive().read('c1');
    expect(read.map((message) => message.text)).toEqual(['  one\ntwo  ', 'a page said so']);
    expect(read[1]).toMatchObject({
      speaker: 'alice',
      at: 1_000,
      outside: true,
      origins: ['https://x.example'],
    });
    expect((await hostB.messageArchive().read('c1', first?.seq)).map((message) => message.text)).toEqual([
      'a page said so',
    ]);
    expect(await hostB.messageArchive().conversations()).toContain('c1');
  });

  it('finds messages by full-text search with English stems', async () => {
    await hostA
      .messageArchive()
      .append('c2', [said('We went hiking in the mountains.'), said('Lunch was soup.')]);
    const hits = await searchArchive(hostB.messageArchive(), 'c2', 'hike mountain', {
      limit: 5,
      now: new Date(),
    });
    expect(hits.map((hit) => hit.message.text)).toEqual(['We went hiking in the mountains.']);
  });

  it('removes one message, clears a conversation and prunes by age', async () => {
    const archive = hostA.messageArchive();
    const [old, fresh] = await archive.append('c3', [said('old', 10), said('fresh', 100), said('also', 100)]);
    expect(await archive.prune(50)).toBeGreaterThanOrEqual(1);
    expect(await archive.remove('c3', old?.seq ?? 0)).toBe(false);
    expect(await archive.remove('c3', fresh?.seq ?? 0)).toBe(true);
    expect(await archive.clear('c3')).toBe(1);
    expect(await archive.read('c3')).toEqual([]);
  });

  it('recalls on one host what was said on another', async () => {
    await hostA.messageArchive().append('c4', [said('The spare key is under the blue pot.')]);
    const agent = createAgent({
      ollama: { host: fake.url, model: 'm' },
      tools: [],
      memory: { store: hostB.memoryStore(), archive: hostB.messageArchive() },
    });
    const answer = await agent.answer('Where is the spare key?', { conversationId: 'c4' });
    expect(answer.recalled?.map((message) => message.text)).toEqual(['The spare key is under the blue pot.']);
    expect(fake.requests[0]?.messages[1]?.content).toContain('alice: The spare key is under the blue pot.');
    await agent.close();
  });
});
