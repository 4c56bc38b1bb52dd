import { type FakeChatRequest, type FakeOllama, startFakeOllama } from '@macstats/testing';
import { afterEach, describe, expect, it } from 'vitest';
import { type AgentEvent, createAgent, type Tool } from '../src/index.js';

let fake: FakeOllama | undefined;
afterEach(async () => {
  await fake?.close();
  fake = undefined;
});

const SYSTEM = 'SYSTEM-MARKER: you answer questions about logs.';
const bigTool: Tool = {
  name: 'READ_LOG',
  description: 'Reads the log.',
  usage: 'READ_LOG: <name>',
  run: async (argument) =>
    Array.from(
      { length: 400 },
      (_, index) => `${argument} line ${index}: disk ok, cpu ok, nothing new.`,
    ).join('\n'),
};

/** A model that reads the log once per question, then answers at length. */
function logReader(request: FakeChatRequest) {
  const read = request.messages.some((message) => message.role === 'tool');
  if (read || !request.tools) return `Answer: ${'the log shows nothing unusual today. '.repeat(40)}`;
  return { toolCalls: [{ name: 'READ_LOG', arguments: { argument: 'syslog' } }] };
}

const contents = (messages: FakeChatRequest['messages']) =>
  messages.map((message) => String(message.content));

describe('the context window', () => {
  it('never loses the system prompt or the question over a 40-turn conversation with large tool outputs', async () => {
    fake = await startFakeOllama({
      models: [{ name: 'ctx:7b', capabilities: ['completion', 'tools'], contextLength: 8192 }],
      reply: logReader,
    });
    const agent = createAgent({
      ollama: { host: fake.url, model: 'ctx:7b' },
      tools: [bigTool],
      systemPrompt: SYSTEM,
      memory: { keepTurns: 40 },
    });
    const dropped: number[] = [];
    const events: AgentEvent[] = [];
    for (let turn = 1; turn <= 40; turn++) {
      const answer = await agent.answer(`Question ${turn}: anything new in the log?`, {
        conversationId: 'long',
        onEvent: (event) => events.push(event),
      });
      expect(answer.error).toBeUndefined();
      for (const step of answer.steps) dropped.push(step.request.dropped ?? 0);
    }
    await agent.close();
    const chats = fake.prompts.filter((_, index) =>
      fake?.requests[index]?.messages.some((m) => m.content.startsWith('Question')),
    );
    expect(chats).toHaveLength(80);
    chats.forEach((prompt, index) => {
      const turn = Math.floor(index / 2) + 1;
      expect(prompt.cut, `request ${index} was cut by the server`).toBe(false);
      expect(contents(prompt.messages)[0]).toContain('SYSTEM-MARKER');
      expect(contents(prompt.messages).some((text) => text.startsWith(`Question ${turn}:`))).toBe(true);
    });
    // The server reports only what its cache did not hold: never mistaken for a cut.
    expect(events.filter((event) => event.type === 'context-truncated')).toEqual([]);
    // The conversation outgrew the window: old turns had to go, and the window was sized to fit.
    expect(Math.max(...dropped)).toBeGreaterThan(0);
    expect(fake.requests.every((request) => Number(request.options?.num_ctx) <= 8192)).toBe(true);
  });

  it('sends a small num_ctx for a short chat, rounded up to a step', async () => {
    fake = await startFakeOllama({ models: [{ name: 'ctx:7b', contextLength: 131072 }], replies: ['Hi.'] });
    const agent = createAgent({ ollama: { host: fake.url, model: 'ctx:7b' }, tools: [], memory: false });
    await agent.answer('Hello');
    expect(fake.requests[0]?.options?.num_ctx).toBe(4096);
  });

  it('reports a server that cut the prompt anyway, and fits the next requests in what it read', async () => {
    fake = await startFakeOllama({
      // It claims 6k but serves 2k, as a server started with a smaller window does.
      models: [
        {
          name: 'liar:7b',
          capabilities: ['completion', 'tools'],
          contextLength: 6144,
          servedContextLength: 2048,
        },
      ],
      reply: logReader,
    });
    const agent = createAgent({
      ollama: { host: fake.url, model: 'liar:7b' },
      tools: [bigTool],
      systemPrompt: SYSTEM,
      memory: false,
    });
    const events: AgentEvent[] = [];
    await agent.answer('Question 1: anything new?', { onEvent: (event) => events.push(event) });
    const truncated = events.filter((event) => event.type === 'context-truncated');
    expect(truncated).toHaveLength(1);
    expect(truncated[0]).toMatchObject({ call: 2, promptTokens: 2048 });
    expect(fake.prompts[1]?.cut).toBe(true);

    await agent.answer('Question 2: and now?', { onEvent: (event) => events.push(event) });
    const last = fake.prompts.at(-1);
    expect(last?.cut).toBe(false);
    expect(contents(last?.messages ?? [])[0]).toContain('SYSTEM-MARKER');
    expect(contents(last?.messages ?? [])).toContain('Question 2: and now?');
    expect(events.filter((event) => event.type === 'context-truncated')).toHaveLength(1);
  });

  it('takes the context length from the settings over the server, and never above the cap', async () => {
    fake = await startFakeOllama({
      models: [{ name: 'ctx:7b', contextLength: 131072 }],
      replies: ['Hi.', 'Hi.'],
    });
    const stated = createAgent({
      ollama: { host: fake.url, model: 'ctx:7b' },
      tools: [],
      memory: false,
      contextLength: 2048,
    });
    await stated.answer('Hello');
    expect(fake.requests[0]?.options?.num_ctx).toBe(2048);
  });
});
