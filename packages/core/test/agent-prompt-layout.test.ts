import { type FakeChatRequest, type FakeOllama, startFakeOllama } from '@macstats/testing';
import { afterEach, describe, expect, it } from 'vitest';
import { createAgent } from '../src/index.js';
import { recordingTool } from './helpers.js';

let fake: FakeOllama;
afterEach(async () => {
  await fake?.close();
});

/** A request as the model's cache sees it: tool definitions, then each message. */
function serialise(request: FakeChatRequest | undefined): string {
  return (
    JSON.stringify(request?.tools ?? []) +
    (request?.messages ?? []).map((message) => JSON.stringify(message)).join('')
  );
}

describe('prompt layout', () => {
  it('makes each request of an answer extend the previous one byte for byte', async () => {
    fake = await startFakeOllama({
      replies: ['RECOMMEND: search then fetch', 'BRAVE_SEARCH: x', 'FETCH_URL: https://x.example', 'Done.'],
    });
    const agent = createAgent({
      ollama: { host: fake.url, model: 'gemma2:2b' },
      tools: [recordingTool('BRAVE_SEARCH'), recordingTool('FETCH_URL')],
      planning: true,
    });
    await agent.answer('Q', { conversationId: 'c', context: 'CPU 12%' });
    expect(fake.requests).toHaveLength(4);
    for (let index = 1; index < fake.requests.length; index++) {
      const previous = serialise(fake.requests[index - 1]).slice(0, -1);
      expect(serialise(fake.requests[index]).startsWith(previous)).toBe(true);
    }
  });

  it('keeps the system prompt and tool list byte-identical across answers, with volatile context after them', async () => {
    fake = await startFakeOllama({ replies: ['One.', 'Two.'] });
    const agent = createAgent({
      ollama: { host: fake.url, model: 'llama3.2:3b' },
      tools: [recordingTool('FETCH_URL')],
      now: () => new Date(Date.UTC(2026, 0, 1, 12, 0, 30)),
    });
    await agent.answer('first', { conversationId: 'c', context: 'CPU 10%', systemPromptExtra: 'Be terse.' });
    await agent.answer('second', { conversationId: 'c', context: 'CPU 90%', systemPromptExtra: 'Be terse.' });
    const [first, second] = fake.requests;
    expect(first?.messages[0]).toEqual(second?.messages[0]);
    expect(JSON.stringify(first?.tools)).toBe(JSON.stringify(second?.tools));
    expect(first?.messages[0]?.content).toContain('Be terse.');
    expect(first?.messages[0]?.content).not.toContain('CPU');
    expect(first?.messages[1]?.content).toContain('CPU 10%');
    expect(second?.messages[1]?.content).toContain('CPU 90%');
    expect(first?.messages[1]?.content).toContain('Current date and time: Thursday 2026-01-01 12:00 UTC.');
  });
});
