import { type FakeOllama, startFakeOllama } from '@macstats/testing';
import { afterEach, describe, expect, it } from 'vitest';
import { type AgentEvent, createAgent } from '../src/index.js';
import { recordingTool } from './helpers.js';

let fake: FakeOllama;
afterEach(async () => {
  await fake?.close();
});

describe('events and stats', () => {
  it('reports calls, streamed tokens, tool runs and tokens per second', async () => {
    fake = await startFakeOllama({
      replies: [
        { content: 'FETCH_URL: https://a.example', evalCount: 10, evalDurationMs: 500, promptEvalCount: 42 },
        { content: 'The answer is here.', evalCount: 30, evalDurationMs: 1000 },
      ],
    });
    const events: AgentEvent[] = [];
    const tool = recordingTool('FETCH_URL', (_argument, context) => {
      context.onStatus?.('Fetching https://a.example');
      return 'page';
    });
    const agent = createAgent({
      ollama: { host: fake.url, model: 'gemma2:2b' },
      tools: [tool],
      memory: false,
    });

    await agent.answer('Q', { onEvent: (event) => events.push(event) });

    expect(events.map((event) => event.type).filter((type) => type !== 'token')).toEqual([
      'llm-call-start',
      'llm-call-end',
      'tool-call-start',
      'status',
      'tool-call-end',
      'step',
      'llm-call-start',
      'llm-call-end',
      'step',
    ]);
    const ends = events.filter((event) => event.type === 'llm-call-end');
    expect(ends[0]).toMatchObject({
      call: 1,
      purpose: 'tools',
      promptTokens: 42,
      completionTokens: 10,
      tokensPerSecond: 20,
      hadToolCall: true,
    });
    expect(ends[1]).toMatchObject({
      call: 2,
      purpose: 'tools',
      completionTokens: 30,
      tokensPerSecond: 30,
      hadToolCall: false,
    });
    const tokens = (call: number) =>
      events
        .filter(
          (event): event is Extract<AgentEvent, { type: 'token' }> =>
            event.type === 'token' && event.call === call,
        )
        .map((event) => event.text)
        .join('');
    expect(tokens(1)).toBe('FETCH_URL: https://a.example');
    expect(tokens(2)).toBe('The answer is here.');
    const toolEnd = events.find((event) => event.type === 'tool-call-end');
    expect(toolEnd).toMatchObject({
      tool: 'FETCH_URL',
      argument: 'https://a.example',
      iteration: 1,
      result: { text: 'page' },
    });
    expect(events).toContainEqual({ type: 'status', text: 'Fetching https://a.example' });
  });

  it('sends events to the agent-wide listener as well', async () => {
    fake = await startFakeOllama({ replies: ['Hi.'] });
    const events: AgentEvent[] = [];
    const agent = createAgent({
      ollama: { host: fake.url, model: 'gemma2:2b' },
      tools: [],
      memory: false,
      onEvent: (event) => events.push(event),
    });
    await agent.answer('Hello');
    expect(events.map((event) => event.type)).toContain('llm-call-end');
  });

  it('keeps answering when a listener throws', async () => {
    fake = await startFakeOllama({ replies: ['Hi.'] });
    const agent = createAgent({ ollama: { host: fake.url, model: 'gemma2:2b' }, tools: [], memory: false });
    const answer = await agent.answer('Hello', {
      onEvent: () => {
        throw new Error('listener bug');
      },
    });
    expect(answer.text).toBe('Hi.');
  });

  it('does not stream when nobody listens', async () => {
    fake = await startFakeOllama({ replies: ['Hi.'] });
    const agent = createAgent({ ollama: { host: fake.url, model: 'gemma2:2b' }, tools: [], memory: false });
    await agent.answer('Hello');
    expect(fake.requests[0]?.stream).toBe(false);
  });
});
