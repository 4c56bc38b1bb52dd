import { createAgent, createDailyTokenBudget, TOKEN_BUDGET_SPENT } from '@macstats/core';
import { type FakeOllama, startFakeOllama, startTestPostgres, type TestPostgres } from '@macstats/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectPostgres, type PostgresStore } from '../src/index.js';

let server: TestPostgres;
let hostA: PostgresStore;
let hostB: PostgresStore;
let model: FakeOllama;
beforeAll(async () => {
  server = await startTestPostgres();
  const url = await server.createDatabase('tokens');
  [hostA, hostB] = await Promise.all([connectPostgres({ url }), connectPostgres({ url })]);
  model = await startFakeOllama({
    replies: Array.from({ length: 3 }, () => ({ content: 'ok', promptEvalCount: 30, evalCount: 20 })),
  });
});
afterAll(async () => {
  await Promise.all([hostA.close(), hostB.close(), model.close()]);
  await server.close();
});

describe('the daily token ledger on PostgreSQL', () => {
  it('loses no count when two hosts count one key at the same moment', async () => {
    const [a, b] = [hostA.tokenLedger(), hostB.tokenLedger()];
    await Promise.all(
      Array.from({ length: 40 }, (_, index) =>
        (index % 2 === 0 ? a : b).add('2026-11-27', ['agent:default', 'channel:9'], 10),
      ),
    );
    expect(await a.spent('2026-11-27', ['agent:default', 'channel:9', 'agent:other'])).toEqual({
      'agent:default': 400,
      'channel:9': 400,
      'agent:other': 0,
    });
    expect(await b.day('2026-11-28')).toEqual({});
  });

  it('refuses on one host an agent whose day another host spent', async () => {
    const now = () => new Date('2026-12-01T08:00:00Z');
    const agent = () =>
      createAgent({ ollama: { host: model.url, model: 'gemma2:2b' }, tools: [], memory: false });
    const onA = createDailyTokenBudget({ ledger: hostA.tokenLedger(), perAgent: 100, now }).guard(agent());
    const onB = createDailyTokenBudget({ ledger: hostB.tokenLedger(), perAgent: 100, now }).guard(agent());
    await onA.answer('one', { account: { agent: 'research' } });
    await onA.answer('two', { account: { agent: 'research' } });
    const refused = await onB.answer('three', { account: { agent: 'research' } });
    expect(refused.error?.code).toBe(TOKEN_BUDGET_SPENT);
    expect(refused.text).toBe(
      'The agent "research" has spent its daily budget of 100 tokens; it resets at 00:00 UTC, in 16 h.',
    );
    expect(model.requests).toHaveLength(2);
  });
});
