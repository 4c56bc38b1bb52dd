import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type FakeOllama, startFakeOllama } from '@macstats/testing';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  createAgent,
  createDailyTokenBudget,
  createFileTokenLedger,
  TOKEN_BUDGET_SPENT,
} from '../src/index.js';

let fake: FakeOllama;
let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'token-budget-'));
});
afterEach(async () => {
  await fake?.close();
  await rm(dir, { recursive: true, force: true });
});

const reply = (content: string) => ({ content, promptEvalCount: 60, evalCount: 40 });
const agentOn = (url: string) =>
  createAgent({ ollama: { host: url, model: 'gemma2:2b' }, tools: [], memory: false });

describe('daily token budget', () => {
  it('counts each answer and refuses the next once the agent has spent its day, with one sentence', async () => {
    fake = await startFakeOllama({ replies: [reply('One.'), reply('Two.'), reply('Three.')] });
    const file = join(dir, 'token-budget.json');
    let now = new Date('2026-11-27T21:00:00Z');
    const budget = createDailyTokenBudget({
      ledger: createFileTokenLedger(file),
      perAgent: 150,
      now: () => now,
    });
    const agent = budget.guard(agentOn(fake.url));

    expect((await agent.answer('first')).text).toBe('One.');
    expect((await agent.answer('second')).text).toBe('Two.');
    const refused = await agent.answer('third');
    expect(refused.error).toEqual({
      code: TOKEN_BUDGET_SPENT,
      message:
        'The agent "default" has spent its daily budget of 150 tokens; it resets at 00:00 UTC, in 3 h.',
      retryAt: '2026-11-28T00:00:00.000Z',
    });
    expect(refused.text).toBe(refused.error?.message);
    // The model was not asked a third time.
    expect(fake.requests).toHaveLength(2);
    expect(JSON.parse(await readFile(file, 'utf8'))).toEqual({
      day: '2026-11-27',
      spent: { 'agent:default': 200 },
    });

    // After the reset the same agent answers again.
    now = new Date('2026-11-28T00:00:01Z');
    expect((await agent.answer('third')).text).toBe('Three.');
  });

  it('keeps what was spent across a restart (a new budget on the same file)', async () => {
    fake = await startFakeOllama({ replies: [reply('One.')] });
    const file = join(dir, 'token-budget.json');
    const now = () => new Date('2026-11-27T10:00:00Z');
    const first = createDailyTokenBudget({ ledger: createFileTokenLedger(file), perAgent: 100, now });
    await first.guard(agentOn(fake.url)).answer('first');
    const second = createDailyTokenBudget({ ledger: createFileTokenLedger(file), perAgent: 100, now });
    const answer = await second.guard(agentOn(fake.url)).answer('again');
    expect(answer.error?.code).toBe(TOKEN_BUDGET_SPENT);
    expect(fake.requests).toHaveLength(1);
  });

  it('counts a channel apart from the agent, and refuses only in the spent channel', async () => {
    fake = await startFakeOllama({ replies: [reply('A.'), reply('B.')] });
    const budget = createDailyTokenBudget({
      ledger: createFileTokenLedger(join(dir, 'budget.json')),
      perChannel: 100,
      now: () => new Date('2026-11-27T12:30:00Z'),
    });
    const agent = budget.guard(agentOn(fake.url));
    await agent.answer('in 111', { account: { channel: '111' } });
    const refused = await agent.answer('in 111 again', { account: { channel: '111' } });
    expect(refused.text).toBe(
      'This channel has spent its daily budget of 100 tokens; it resets at 00:00 UTC, in 11.5 h.',
    );
    expect((await agent.answer('in 222', { account: { channel: '222' } })).text).toBe('B.');
    expect(await budget.status()).toEqual({
      day: '2026-11-27',
      resetsAt: '2026-11-28T00:00:00.000Z',
      limits: { agent: undefined, channel: 100 },
      budgets: [
        { scope: 'agent', name: 'default', spent: 200, limit: undefined },
        { scope: 'channel', name: '111', spent: 100, limit: 100 },
        { scope: 'channel', name: '222', spent: 100, limit: 100 },
      ],
    });
  });

  it('refuses when the ledger cannot be read, and a broken file counts from zero', async () => {
    fake = await startFakeOllama({ replies: [reply('A.')] });
    const broken = join(dir, 'broken.json');
    await writeFile(broken, '{ not json');
    const fromZero = createDailyTokenBudget({ ledger: createFileTokenLedger(broken), perAgent: 1000 });
    expect((await fromZero.guard(agentOn(fake.url)).answer('q')).text).toBe('A.');

    const failing = createDailyTokenBudget({
      ledger: {
        spent: async () => {
          throw new Error('disk gone');
        },
        add: async () => {},
        day: async () => ({}),
      },
      perAgent: 1000,
    });
    const answer = await failing.guard(agentOn(fake.url)).answer('q');
    expect(answer.text).toBe(
      'The daily token budget could not be read (disk gone), so the model was not asked.',
    );
    expect(fake.requests).toHaveLength(1);
  });

  it('counts tokens spent outside an answer against the same agent and channel, and refuses with the sentence an answer gets', async () => {
    fake = await startFakeOllama({ replies: [reply('One.')] });
    const file = join(dir, 'token-budget.json');
    const now = () => new Date('2026-11-27T21:00:00Z');
    const budget = createDailyTokenBudget({ ledger: createFileTokenLedger(file), perChannel: 50, now });
    const inChannel = { account: { agent: 'ops', channel: '42' } };
    expect(await budget.check(inChannel)).toBeUndefined();
    // A transcript's tokens, as the transcription server reported them.
    await budget.count(inChannel, 50);
    expect(JSON.parse(await readFile(file, 'utf8')).spent).toEqual({ 'agent:ops': 50, 'channel:42': 50 });
    const sentence = 'This channel has spent its daily budget of 50 tokens; it resets at 00:00 UTC, in 3 h.';
    expect(await budget.check(inChannel)).toEqual({
      code: TOKEN_BUDGET_SPENT,
      message: sentence,
      retryAt: '2026-11-28T00:00:00.000Z',
    });
    // A typed message in the same channel gets the same sentence, and the model is not asked.
    const answer = await budget.guard(agentOn(fake.url)).answer('hello', inChannel);
    expect(answer.text).toBe(sentence);
    expect(fake.requests).toHaveLength(0);
    // Another channel has its own budget.
    expect(await budget.check({ account: { channel: '7' } })).toBeUndefined();
  });

  it('counts nothing for no tokens', async () => {
    const file = join(dir, 'token-budget.json');
    const budget = createDailyTokenBudget({ ledger: createFileTokenLedger(file), perAgent: 10 });
    await budget.count(undefined, 0);
    await expect(readFile(file, 'utf8')).rejects.toMatchObject({ code: 'ENOENT' });
  });
});
