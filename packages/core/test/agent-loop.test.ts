import { type FakeOllama, startFakeOllama } from '@macstats/testing';
import { afterEach, describe, expect, it } from 'vitest';
import { type AgentEvent, createAgent } from '../src/index.js';
import { lastMessage, promptText, recordingTool } from './helpers.js';

let fake: FakeOllama;
afterEach(async () => {
  await fake?.close();
});

describe('direct mode with the text protocol', () => {
  it('runs the tool line, feeds the result back and returns the answer', async () => {
    fake = await startFakeOllama({ replies: ['FETCH_URL: https://a.example', 'The page says hello.'] });
    const fetchTool = recordingTool('FETCH_URL', () => 'hello from a.example');
    const agent = createAgent({
      ollama: { host: fake.url, model: 'gemma2:2b' },
      tools: [fetchTool],
      memory: false,
    });

    const answer = await agent.answer('What does a.example say?');

    expect(answer.text).toBe('The page says hello.');
    expect(fetchTool.calls).toEqual(['https://a.example']);
    expect(answer.llmCalls).toBe(2);
    expect(answer.toolCalls).toMatchObject([
      { tool: 'FETCH_URL', argument: 'https://a.example', result: { text: 'hello from a.example' } },
    ]);
    expect(lastMessage(fake.requests[1])).toMatchObject({ role: 'user' });
    expect(lastMessage(fake.requests[1])?.content).toContain('hello from a.example');
  });

  it('answers without tools when the model needs none', async () => {
    fake = await startFakeOllama({ replies: ['Paris.'] });
    const agent = createAgent({
      ollama: { host: fake.url, model: 'gemma2:2b' },
      tools: [recordingTool('FETCH_URL')],
      memory: false,
    });
    const answer = await agent.answer('Capital of France?');
    expect(answer).toMatchObject({ text: 'Paris.', llmCalls: 1, toolCalls: [] });
  });

  it('sends no native tools to a model without the tools capability', async () => {
    fake = await startFakeOllama({ replies: ['Hi.'] });
    const agent = createAgent({
      ollama: { host: fake.url, model: 'gemma2:2b' },
      tools: [recordingTool('FETCH_URL')],
      memory: false,
    });
    await agent.answer('Hello');
    expect(fake.requests[0]?.tools).toBeUndefined();
    expect(fake.requests[0]?.messages[0]?.content).toContain('FETCH_URL: <argument>');
  });

  it('spends N+1 chat calls on N tool runs', async () => {
    fake = await startFakeOllama({
      replies: ['FETCH_URL: https://a.example', 'BRAVE_SEARCH: b', 'RUN_CMD: ls', 'Done.'],
    });
    const tools = ['FETCH_URL', 'BRAVE_SEARCH', 'RUN_CMD'].map((name) => recordingTool(name));
    const agent = createAgent({ ollama: { host: fake.url, model: 'gemma2:2b' }, tools, memory: false });
    const answer = await agent.answer('Do three things.');
    expect(answer.toolCalls).toHaveLength(3);
    expect(answer.llmCalls).toBe(4);
    expect(answer.text).toBe('Done.');
  });
});

describe('native tool calling', () => {
  it('offers the given tools as functions and answers a native call with a tool message', async () => {
    fake = await startFakeOllama({
      replies: [
        { toolCalls: [{ name: 'BRAVE_SEARCH', arguments: { argument: 'weather lisbon' } }] },
        'Sunny.',
      ],
    });
    const search = recordingTool('BRAVE_SEARCH', () => 'sunny, 24 C');
    const agent = createAgent({
      ollama: { host: fake.url, model: 'llama3.2:3b' },
      tools: [search],
      memory: false,
    });

    const answer = await agent.answer('Weather in Lisbon?');

    expect(answer.text).toBe('Sunny.');
    expect(search.calls).toEqual(['weather lisbon']);
    expect(fake.requests[0]?.tools?.map((tool) => tool.function.name)).toEqual(['BRAVE_SEARCH']);
    const toolMessage = lastMessage(fake.requests[1]);
    expect(toolMessage).toMatchObject({ role: 'tool', tool_name: 'BRAVE_SEARCH' });
    expect(toolMessage?.content).toContain('sunny, 24 C');
    expect(fake.log.filter((entry) => entry.path === '/api/show')).toHaveLength(1);
  });

  it('still parses the text protocol from the content when no native call comes back', async () => {
    fake = await startFakeOllama({ replies: ['**FETCH_URL:** https://b.example', 'B says hi.'] });
    const fetchTool = recordingTool('FETCH_URL');
    const agent = createAgent({
      ollama: { host: fake.url, model: 'qwen2.5:7b' },
      tools: [fetchTool],
      memory: false,
    });
    const answer = await agent.answer('What does b.example say?');
    expect(fetchTool.calls).toEqual(['https://b.example']);
    expect(answer.text).toBe('B says hi.');
    expect(fake.requests[0]?.tools).toHaveLength(1);
  });

  it('asks /api/show once per model and remembers the answer', async () => {
    fake = await startFakeOllama({ replies: ['One.', 'Two.'] });
    const agent = createAgent({
      ollama: { host: fake.url, model: 'llama3.2:3b' },
      tools: [recordingTool('FETCH_URL')],
      memory: false,
    });
    await agent.answer('1');
    await agent.answer('2');
    expect(fake.log.filter((entry) => entry.path === '/api/show')).toHaveLength(1);
  });

  it('falls back to the text protocol when Ollama refuses tools for the model', async () => {
    fake = await startFakeOllama({ replies: ['FETCH_URL: https://c.example', 'C is fine.'] });
    const fetchTool = recordingTool('FETCH_URL');
    const agent = createAgent({
      ollama: { host: fake.url, model: 'gemma2:2b' },
      tools: [fetchTool],
      memory: false,
      native: true,
    });
    const answer = await agent.answer('Check c.example');
    expect(answer.text).toBe('C is fine.');
    expect(fetchTool.calls).toEqual(['https://c.example']);
    expect(fake.requests.map((request) => request.tools === undefined)).toEqual([false, true, true]);
  });

  it("offers a tool's own native functions and maps calls back through toArgument", async () => {
    fake = await startFakeOllama({
      replies: [{ toolCalls: [{ name: 'mcp_demo__get_sum', arguments: { a: 2, b: 3 } }] }, 'It is 5.'],
    });
    const mcp = {
      ...recordingTool('MCP', () => '5'),
      details: () => 'get_sum {a, b}: adds two numbers',
      nativeFunctions: () => [
        {
          name: 'mcp_demo__get_sum',
          description: 'Adds two numbers.',
          parameters: { type: 'object', properties: { a: { type: 'number' }, b: { type: 'number' } } },
          toArgument: (args: Record<string, unknown>) => `get_sum ${JSON.stringify(args)}`,
        },
      ],
    };
    const agent = createAgent({
      ollama: { host: fake.url, model: 'llama3.2:3b' },
      tools: [mcp],
      memory: false,
    });

    const answer = await agent.answer('2 + 3?');

    expect(answer.text).toBe('It is 5.');
    expect(mcp.calls).toEqual(['get_sum {"a":2,"b":3}']);
    expect(fake.requests[0]?.tools?.map((tool) => tool.function.name)).toEqual(['mcp_demo__get_sum']);
    expect(fake.requests[0]?.messages[0]?.content).toContain('  get_sum {a, b}: adds two numbers');
  });
});

describe('a native function whose toArgument throws', () => {
  it('still runs the tool with the arguments as text, and answers', async () => {
    fake = await startFakeOllama({
      replies: [{ toolCalls: [{ name: 'mcp_demo__get_sum', arguments: { a: 'two' } }] }, 'It needs numbers.'],
    });
    const mcp = {
      ...recordingTool('MCP', () => ({ text: 'a must be a number', isError: true })),
      nativeFunctions: () => [
        {
          name: 'mcp_demo__get_sum',
          description: 'Adds two numbers.',
          parameters: { type: 'object', properties: { a: { type: 'number' } } },
          toArgument: (): string => {
            throw new Error('a must be a number');
          },
        },
      ],
    };
    const agent = createAgent({
      ollama: { host: fake.url, model: 'llama3.2:3b' },
      tools: [mcp],
      memory: false,
    });

    const answer = await agent.answer('two + 3?');

    expect(answer.error).toBeUndefined();
    expect(answer.text).toBe('It needs numbers.');
    expect(mcp.calls).toEqual(['two']);
  });
});

describe('the tool list', () => {
  it('offers only the tools given, and the per-answer list replaces it', async () => {
    fake = await startFakeOllama({ replies: ['RUN_JS: 1 + 1', 'Two.'] });
    const runJs = recordingTool('RUN_JS', () => '2');
    const agent = createAgent({
      ollama: { host: fake.url, model: 'gemma2:2b' },
      tools: [recordingTool('FETCH_URL')],
      memory: false,
    });
    const answer = await agent.answer('1 + 1?', { tools: [runJs] });
    expect(runJs.calls).toEqual(['1 + 1']);
    expect(answer.text).toBe('Two.');
    const system = fake.requests[0]?.messages[0]?.content ?? '';
    expect(system).toContain('RUN_JS: <argument>');
    expect(system).not.toContain('FETCH_URL');
  });

  it('tells the model it has no tools when it is given none', async () => {
    fake = await startFakeOllama({ replies: ['Hello.'] });
    const agent = createAgent({ ollama: { host: fake.url, model: 'llama3.2:3b' }, tools: [], memory: false });
    await agent.answer('Hi');
    await agent.answer('Hi again');
    expect(fake.requests[0]?.tools).toBeUndefined();
    expect(fake.requests[0]?.messages[0]?.content).toContain('You have no tools here');
    // Asked once, for the context length, not for tools: the answer is kept per model.
    expect(fake.log.filter((entry) => entry.path === '/api/show')).toHaveLength(1);
  });
});

describe('planning mode', () => {
  it('asks for a RECOMMEND plan first, then executes it', async () => {
    fake = await startFakeOllama({
      replies: [
        'RECOMMEND: BRAVE_SEARCH for the release, then answer.',
        'BRAVE_SEARCH: ollama release',
        'Version 0.12.',
      ],
    });
    const search = recordingTool('BRAVE_SEARCH');
    const events: AgentEvent[] = [];
    const agent = createAgent({
      ollama: { host: fake.url, model: 'gemma2:2b' },
      tools: [search],
      planning: true,
      memory: false,
    });

    const answer = await agent.answer('Latest Ollama version?', { onEvent: (event) => events.push(event) });

    expect(answer.plan).toBe('BRAVE_SEARCH for the release, then answer.');
    expect(answer.text).toBe('Version 0.12.');
    expect(answer.llmCalls).toBe(3);
    expect(search.calls).toEqual(['ollama release']);
    expect(lastMessage(fake.requests[0])?.content).toContain('RECOMMEND:');
    expect(promptText(fake.requests[1])).toContain('assistant: RECOMMEND: BRAVE_SEARCH for the release');
    expect(events.filter((event) => event.type.startsWith('planning'))).toEqual([
      { type: 'planning-start' },
      { type: 'planning-end', plan: 'BRAVE_SEARCH for the release, then answer.' },
    ]);
  });

  it('does not run a tool the plan names', async () => {
    fake = await startFakeOllama({ replies: ['RECOMMEND: FETCH_URL: https://a.example', 'Known already.'] });
    const fetchTool = recordingTool('FETCH_URL');
    const agent = createAgent({
      ollama: { host: fake.url, model: 'gemma2:2b' },
      tools: [fetchTool],
      memory: false,
      planning: true,
    });
    const answer = await agent.answer('Question');
    expect(fetchTool.calls).toEqual([]);
    expect(answer.text).toBe('Known already.');
  });

  it('can be turned on for one answer', async () => {
    fake = await startFakeOllama({ replies: ['RECOMMEND: answer directly', 'Hi.'] });
    const agent = createAgent({
      ollama: { host: fake.url, model: 'gemma2:2b' },
      tools: [recordingTool('FETCH_URL')],
      memory: false,
    });
    const answer = await agent.answer('Hello', { planning: true });
    expect(answer).toMatchObject({ plan: 'answer directly', text: 'Hi.', llmCalls: 2 });
  });
});

describe('tools whose optional hooks fail', () => {
  it('still answers when details() and nativeFunctions() throw', async () => {
    fake = await startFakeOllama({
      replies: [{ toolCalls: [{ name: 'MCP', arguments: { argument: 'echo hi' } }] }, 'Echoed.'],
    });
    const mcp = {
      ...recordingTool('MCP', () => 'hi'),
      details: () => {
        throw new Error('connection closed');
      },
      nativeFunctions: () => {
        throw new Error('connection closed');
      },
    };
    const agent = createAgent({
      ollama: { host: fake.url, model: 'llama3.2:3b' },
      tools: [mcp],
      memory: false,
    });
    const answer = await agent.answer('Echo hi');
    expect(answer.text).toBe('Echoed.');
    expect(mcp.calls).toEqual(['echo hi']);
    expect(fake.requests[0]?.tools?.map((tool) => tool.function.name)).toEqual(['MCP']);
  });
});
