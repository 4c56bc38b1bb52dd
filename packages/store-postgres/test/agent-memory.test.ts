import { createAgent } from '@macstats/core';
import { type FakeOllama, startFakeOllama, startTestPostgres, type TestPostgres } from '@macstats/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectPostgres, type PostgresStore } from '../src/index.js';

let server: TestPostgres;
let hostA: PostgresStore;
let hostB: PostgresStore;
let fake: FakeOllama;
beforeAll(async () => {
  server = await startTestPostgres();
  const url = await server.createDatabase('agents');
  [hostA, hostB] = await Promise.all([connectPostgres({ url }), connectPostgres({ url })]);
  fake = await startFakeOllama({
    replies: ['Disk is 81 % full.', 'Memory is 12 GB of 16 GB.', 'Yes, both.'],
  });
});
afterAll(async () => {
  await fake.close();
  await Promise.all([hostA.close(), hostB.close()]);
  await server.close();
});

/** The agent of one bot host: its own process memory, the database's records. */
const agentOn = (host: PostgresStore) =>
  createAgent({
    ollama: { host: fake.url, model: 'gemma2:2b' },
    tools: [],
    memory: { store: host.memoryStore(), keepTurns: 4 },
  });

const said = (request: { messages: Array<{ content: string }> } | undefined) =>
  (request?.messages ?? []).map((message) => message.content);

describe('conversation memory on PostgreSQL', () => {
  it('continues a conversation started on one host on another, and back again', async () => {
    const a = agentOn(hostA);
    const b = agentOn(hostB);
    await a.answer('How full is the disk?', { conversationId: 'discord-7' });
    await a.idle();
    await b.answer('And memory?', { conversationId: 'discord-7' });
    await b.idle();
    expect(said(fake.requests[1])).toEqual(
      expect.arrayContaining(['How full is the disk?', 'Disk is 81 % full.']),
    );
    // Back on the first host: its cache must not hide what the second host added.
    await a.answer('Both fine?', { conversationId: 'discord-7' });
    expect(said(fake.requests[2])).toEqual(
      expect.arrayContaining(['And memory?', 'Memory is 12 GB of 16 GB.', 'Disk is 81 % full.']),
    );
    await Promise.all([a.close(), b.close()]);
  });
});
