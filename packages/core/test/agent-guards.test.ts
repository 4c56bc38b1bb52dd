import { type FakeOllama, startFakeOllama } from '@macstats/testing';
import { afterEach, describe, expect, it } from 'vitest';
import { createAgent } from '../src/index.js';
import { lastMessage, recordingTool, textAgent as textAgentAt } from './helpers.js';

let fake: FakeOllama;
afterEach(async () => {
  await fake?.close();
});

const textAgent = (tools: ReturnType<typeof recordingTool>[], maxToolIterations?: number) =>
  textAgentAt(fake.url, tools, maxToolIterations);

describe('the tool budget', () => {
  it('stops at maxToolIterations and makes one last call without tools', async () => {
    fake = await startFakeOllama({
      reply: (request) =>
        request.messages.some((message) => message.content.includes('No more tools can run now'))
          ? 'Here is what I found.'
          : `BRAVE_SEARCH: query ${request.messages.length}`,
    });
    const search = recordingTool('BRAVE_SEARCH');
    const answer = await textAgent([search], 3).answer('Search a lot');
    expect(search.calls).toHaveLength(3);
    expect(answer.llmCalls).toBe(4);
    expect(answer.text).toBe('Here is what I found.');
  });

  it('runs at most 5 tools by default', async () => {
    fake = await startFakeOllama({
      reply: (request) =>
        request.messages.some((message) => message.content.includes('No more tools can run now'))
          ? 'Done.'
          : `FETCH_URL: https://a.example/${request.messages.length}`,
    });
    const fetchTool = recordingTool('FETCH_URL');
    const answer = await textAgent([fetchTool]).answer('Go');
    expect(fetchTool.calls).toHaveLength(5);
    expect(answer.llmCalls).toBe(6);
  });

  it('sends the last call without native tools', async () => {
    fake = await startFakeOllama({
      replies: [
        { toolCalls: [{ name: 'FETCH_URL', arguments: { argument: 'https://a.example' } }] },
        'Final.',
      ],
    });
    const agent = createAgent({
      ollama: { host: fake.url, model: 'llama3.2:3b' },
      tools: [recordingTool('FETCH_URL')],
      memory: false,
      maxToolIterations: 1,
    });
    const answer = await agent.answer('Go');
    expect(answer.text).toBe('Final.');
    expect(fake.requests.map((request) => request.tools === undefined)).toEqual([false, true]);
  });

  it('gives one coherent reply when the last call still asks for a tool', async () => {
    fake = await startFakeOllama({
      replies: ['FETCH_URL: https://a.example', 'FETCH_URL: https://b.example'],
    });
    const answer = await textAgent([recordingTool('FETCH_URL')], 1).answer('Go');
    expect(answer.text).not.toContain('FETCH_URL');
    expect(answer.text).toMatch(/could not finish/);
    expect(answer.llmCalls).toBe(2);
  });

  it('keeps the prose of a last reply and drops the tool line in it', async () => {
    fake = await startFakeOllama({
      replies: ['FETCH_URL: https://a.example', 'The page is up.\nFETCH_URL: https://b.example'],
    });
    const answer = await textAgent([recordingTool('FETCH_URL')], 1).answer('Go');
    expect(answer.text).toBe('The page is up.');
  });

  it('warns the model on its last iteration', async () => {
    fake = await startFakeOllama({ replies: ['BRAVE_SEARCH: one', 'BRAVE_SEARCH: two', 'Done.'] });
    await textAgent([recordingTool('BRAVE_SEARCH')], 2).answer('Go');
    expect(lastMessage(fake.requests[0])?.content).not.toContain('one more tool');
    expect(lastMessage(fake.requests[1])?.content).toContain('you can run one more tool at most');
  });
});

describe('repeated calls', () => {
  it('does not run the same call twice and tells the model', async () => {
    fake = await startFakeOllama({
      replies: ['BRAVE_SEARCH: Weather  Paris', 'brave_search: weather paris', 'Sunny.'],
    });
    const search = recordingTool('BRAVE_SEARCH');
    const answer = await textAgent([search]).answer('Weather?');
    expect(search.calls).toEqual(['Weather  Paris']);
    expect(answer.toolCalls.map((call) => call.skipped)).toEqual([undefined, 'repeat']);
    expect(lastMessage(fake.requests[2])?.content).toContain('already ran in this answer');
    expect(answer.text).toBe('Sunny.');
  });

  it('breaks an A-B-A-B cycle and answers', async () => {
    fake = await startFakeOllama({
      replies: [
        'BRAVE_SEARCH: a',
        'FETCH_URL: https://b.example',
        'BRAVE_SEARCH: a',
        'FETCH_URL: https://b.example',
        'Best I can do.',
      ],
    });
    const search = recordingTool('BRAVE_SEARCH');
    const fetchTool = recordingTool('FETCH_URL');
    const answer = await textAgent([search, fetchTool], 10).answer('Loop');
    expect(search.calls).toEqual(['a']);
    expect(fetchTool.calls).toEqual(['https://b.example']);
    expect(answer.toolCalls.map((call) => call.skipped)).toEqual([undefined, undefined, 'repeat', 'cycle']);
    expect(answer.llmCalls).toBe(5);
    expect(lastMessage(fake.requests[4])?.content).toContain('No more tools can run now');
    expect(answer.text).toBe('Best I can do.');
  });
});

describe('failures', () => {
  it('ends the tool phase after three failures in a row', async () => {
    fake = await startFakeOllama({
      replies: [
        'FETCH_URL: https://1.example',
        'FETCH_URL: https://2.example',
        'FETCH_URL: https://3.example',
        'Sorry.',
      ],
    });
    const failing = recordingTool('FETCH_URL', () => ({ text: 'connection refused', isError: true }));
    const answer = await textAgent([failing], 10).answer('Fetch');
    expect(failing.calls).toHaveLength(3);
    expect(answer.llmCalls).toBe(4);
    expect(lastMessage(fake.requests[3])?.content).toContain('No more tools can run now');
    expect(answer.text).toBe('Sorry.');
  });

  it('turns a tool that throws into an error result the model reads', async () => {
    fake = await startFakeOllama({ replies: ['RUN_CMD: ls', 'It failed.'] });
    const broken = recordingTool('RUN_CMD', () => {
      throw new Error('boom');
    });
    const answer = await textAgent([broken]).answer('List');
    expect(answer.toolCalls[0]?.result).toEqual({ text: 'RUN_CMD failed: boom', isError: true });
    expect(lastMessage(fake.requests[1])?.content).toContain('RUN_CMD failed: boom');
    expect(answer.text).toBe('It failed.');
  });

  it('stops a tool that overruns its time limit', async () => {
    fake = await startFakeOllama({ replies: ['RUN_CMD: sleep', 'Too slow.'] });
    const slow = recordingTool(
      'RUN_CMD',
      (_argument, context) =>
        new Promise<string>((resolve) => {
          context.signal.addEventListener('abort', () => resolve('late'));
        }),
    );
    const agent = createAgent({
      ollama: { host: fake.url, model: 'gemma2:2b' },
      tools: [slow],
      memory: false,
      toolTimeoutMs: 50,
    });
    const answer = await agent.answer('Wait');
    expect(answer.toolCalls[0]?.result).toEqual({
      text: 'RUN_CMD took longer than 50 ms and was stopped.',
      isError: true,
    });
    expect(slow.contexts[0]?.signal.aborted).toBe(true);
  });
});

describe('tools that do not exist', () => {
  it('gives an unknown tool the list of tools that exist', async () => {
    fake = await startFakeOllama({ replies: ['WEB_SEARCH: weather', 'BRAVE_SEARCH: weather', 'Rain.'] });
    const search = recordingTool('BRAVE_SEARCH');
    const answer = await textAgent([search, recordingTool('FETCH_URL')]).answer('Weather?');
    expect(answer.toolCalls[0]).toMatchObject({ tool: 'WEB_SEARCH', skipped: 'unknown-tool' });
    expect(lastMessage(fake.requests[1])?.content).toContain(
      'there is no tool named WEB_SEARCH. The tools that exist are: BRAVE_SEARCH, FETCH_URL.',
    );
    expect(search.calls).toEqual(['weather']);
    expect(answer.text).toBe('Rain.');
  });

  it('does not offer or run a disabled tool', async () => {
    fake = await startFakeOllama({ replies: ['RUN_CMD: cat ~/.mac-stats/schedules.json', 'Cannot.'] });
    const answer = await textAgent([recordingTool('FETCH_URL')]).answer('Read schedules');
    expect(fake.requests[0]?.messages[0]?.content).not.toContain('RUN_CMD');
    expect(answer.toolCalls[0]).toMatchObject({ tool: 'RUN_CMD', skipped: 'unknown-tool' });
  });

  it('answers a tool that exists only elsewhere with the sentence the app gave for it', async () => {
    fake = await startFakeOllama({ replies: ['run_js: document.title', 'No JS here.'] });
    const sentence = 'JavaScript execution is not available in this context.';
    const answer = await createAgent({
      ollama: { host: fake.url, model: 'gemma2:2b' },
      tools: [recordingTool('GET_PAGE')],
      unavailableTools: { RUN_JS: sentence },
      memory: false,
    }).answer('Title?');
    expect(answer.toolCalls[0]).toMatchObject({
      tool: 'RUN_JS',
      skipped: 'unavailable',
      result: { text: sentence },
    });
    expect(lastMessage(fake.requests[1])?.content).toContain(sentence);
  });

  it('treats a tool the app did not name as unknown, with the list of tools', async () => {
    fake = await startFakeOllama({ replies: ['RUN_JS: document.title', 'No JS here.'] });
    const answer = await textAgent([recordingTool('GET_PAGE')]).answer('Title?');
    expect(answer.toolCalls[0]).toMatchObject({ tool: 'RUN_JS', skipped: 'unknown-tool' });
    expect(lastMessage(fake.requests[1])?.content).toContain('The tools that exist are: GET_PAGE');
  });

  it('answers a native call of an unknown function with the list of tools', async () => {
    fake = await startFakeOllama({
      replies: [{ toolCalls: [{ name: 'get_weather', arguments: { city: 'Oslo' } }] }, 'Unknown.'],
    });
    const agent = createAgent({
      ollama: { host: fake.url, model: 'llama3.2:3b' },
      tools: [recordingTool('FETCH_URL')],
      memory: false,
    });
    const answer = await agent.answer('Weather?');
    expect(lastMessage(fake.requests[1])).toMatchObject({ role: 'tool', tool_name: 'get_weather' });
    expect(lastMessage(fake.requests[1])?.content).toContain('The tools that exist are: FETCH_URL');
    expect(answer.text).toBe('Unknown.');
  });

  it('does not mistake an upper-case label in an answer for a call', async () => {
    fake = await startFakeOllama({ replies: ['Here you go.\nNOTE: prices change daily.'] });
    const answer = await textAgent([recordingTool('FETCH_URL')]).answer('Price?');
    expect(answer).toMatchObject({
      llmCalls: 1,
      toolCalls: [],
      text: 'Here you go.\nNOTE: prices change daily.',
    });
  });
});
