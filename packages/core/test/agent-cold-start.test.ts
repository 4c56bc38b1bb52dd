import { type FakeOllama, startFakeOllama } from '@macstats/testing';
import { afterEach, describe, expect, it } from 'vitest';
import { type AgentEvent, createAgent, createOllamaModel } from '../src/index.js';

let fake: FakeOllama | undefined;
afterEach(async () => {
  await fake?.close();
  fake = undefined;
});

/** Limits far apart: a load longer than the between-tokens limit must still be waited for. */
const limits = { firstTokenTimeoutMs: 60_000, betweenTokensTimeoutMs: 40 };

describe('cold start versus a hung model', () => {
  it('says "loading <model>…" and waits for a model that loads for longer than the between-tokens limit', async () => {
    fake = await startFakeOllama({
      models: [{ name: 'slow:7b', loadDelayMs: 400 }],
      replies: ['Loaded and answering.'],
    });
    const agent = createAgent({
      ollama: { host: fake.url, model: 'slow:7b' },
      tools: [],
      memory: false,
      ...limits,
    });
    const events: AgentEvent[] = [];
    const answer = await agent.answer('Hello', { onEvent: (event) => events.push(event) });
    expect(answer.error).toBeUndefined();
    expect(answer.text).toBe('Loaded and answering.');
    const status = events.filter((event) => event.type === 'status');
    expect(status).toEqual([{ type: 'status', text: 'loading slow:7b…' }]);
    // The status comes before the request that waits for the load.
    expect(events.findIndex((event) => event.type === 'status')).toBeLessThan(
      events.findIndex((event) => event.type === 'llm-call-start'),
    );
  });

  it('says nothing about loading when the model is in memory', async () => {
    fake = await startFakeOllama({ models: [{ name: 'warm:7b', loaded: true }], replies: ['Hi.'] });
    const agent = createAgent({
      ollama: { host: fake.url, model: 'warm:7b' },
      tools: [],
      memory: false,
      ...limits,
    });
    const events: AgentEvent[] = [];
    await agent.answer('Hello', { onEvent: (event) => events.push(event) });
    expect(events.filter((event) => event.type === 'status')).toEqual([]);
  });

  it('does not ask /api/ps again right after an answer showed the model loaded', async () => {
    fake = await startFakeOllama({
      models: [{ name: 'slow:7b', loadDelayMs: 20 }],
      replies: ['One.', 'Two.'],
    });
    const agent = createAgent({
      ollama: { host: fake.url, model: 'slow:7b' },
      tools: [],
      memory: false,
      ...limits,
    });
    await agent.answer('Hello', { onEvent: () => {} });
    await agent.answer('Again', { onEvent: () => {} });
    expect(fake.log.filter((entry) => entry.path === '/api/ps')).toHaveLength(1);
  });

  it('ends an answer whose reply stalls mid-stream with one sentence naming the stall', async () => {
    fake = await startFakeOllama({
      models: [{ name: 'hung:7b', loaded: true }],
      replies: [{ content: 'I was saying something', fault: 'stall' }],
    });
    const agent = createAgent({
      ollama: { host: fake.url, model: 'hung:7b' },
      tools: [],
      memory: false,
      ...limits,
    });
    const answer = await agent.answer('Hello', { onEvent: () => {} });
    expect(answer.error?.code).toBe('OLLAMA_STALLED');
    expect(answer.text).toMatch(
      /^The model "hung:7b" stopped for more than 40 ms in the middle of its reply, so the answer was ended: [^.]*`ollama serve`[^.]*\.$/,
    );
  });

  it('gives up when not even the first token comes within the first-token limit', async () => {
    fake = await startFakeOllama({ models: [{ name: 'slow:7b', loadDelayMs: 60_000 }] });
    const agent = createAgent({
      ollama: { host: fake.url, model: 'slow:7b' },
      tools: [],
      memory: false,
      firstTokenTimeoutMs: 50,
      betweenTokensTimeoutMs: 10_000,
    });
    const answer = await agent.answer('Hello', { onEvent: () => {} });
    expect(answer.error?.code).toBe('OLLAMA_TIMEOUT');
  });

  it('passes keep_alive through to Ollama', async () => {
    fake = await startFakeOllama({ replies: ['Hi.'] });
    const model = createOllamaModel({ host: fake.url, model: 'llama3.2:3b', keepAlive: '30m' });
    await model.chat({ messages: [{ role: 'user', content: 'Hello' }] });
    expect(fake.requests[0]?.keep_alive).toBe('30m');
  });
});
