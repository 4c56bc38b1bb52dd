import { type FakeOllama, type FakeOllamaReply, startFakeOllama } from '@macstats/testing';
import { afterEach, describe, expect, it } from 'vitest';
import { type AgentEvent, createAgent } from '../src/index.js';
import { promptText as promptTextOf, recordingTool, until } from './helpers.js';

let fake: FakeOllama;
afterEach(async () => {
  await fake?.close();
});

async function answerWith(reply: FakeOllamaReply, options: { stream?: boolean; model?: string } = {}) {
  fake = await startFakeOllama({ replies: [reply] });
  const events: AgentEvent[] = [];
  const agent = createAgent({
    ollama: { host: fake.url, model: options.model ?? 'llama3.2:3b' },
    tools: [recordingTool('FETCH_URL')],
    memory: false,
  });
  const answer = await agent.answer(
    'Hello',
    options.stream ? { onEvent: (event) => events.push(event) } : {},
  );
  return { answer, events };
}

describe('Ollama failures give one clear sentence', () => {
  it('names `ollama serve` when Ollama is down', async () => {
    fake = await startFakeOllama();
    const url = fake.url;
    await fake.close();
    const agent = createAgent({
      ollama: { host: url, model: 'llama3.2:3b' },
      tools: [recordingTool('FETCH_URL')],
      memory: false,
    });
    const events: AgentEvent[] = [];
    const answer = await agent.answer('Hello', { onEvent: (event) => events.push(event) });
    expect(answer.error).toMatchObject({ code: 'OLLAMA_UNREACHABLE', fromModel: true });
    expect(events.find((event) => event.type === 'error')).toMatchObject({ fromModel: true });
    expect(answer.text).toBe(`Ollama is not reachable at ${url}: start it with \`ollama serve\`.`);
  });

  it('names `ollama pull <model>` when the model is not pulled', async () => {
    fake = await startFakeOllama({ replies: ['never'] });
    const agent = createAgent({
      ollama: { host: fake.url, model: 'llama3:8b' },
      tools: [recordingTool('FETCH_URL')],
      memory: false,
    });
    const answer = await agent.answer('Hello');
    expect(answer.error?.code).toBe('OLLAMA_MODEL_NOT_FOUND');
    expect(answer.text).toContain('run `ollama pull llama3:8b`');
  });

  it('explains an HTTP 500', async () => {
    const { answer } = await answerWith({
      fault: 'http-500',
      errorMessage: 'llama runner process has terminated',
    });
    expect(answer.error?.code).toBe('OLLAMA_SERVER_ERROR');
    expect(answer.text).toBe(
      'Ollama failed with an internal error (HTTP 500: llama runner process has terminated): check its log, and restart it with `ollama serve`.',
    );
  });

  it('explains a stream cut short', async () => {
    const { answer, events } = await answerWith(
      { content: 'partial answer', fault: 'cut-stream' },
      { stream: true },
    );
    expect(answer.error?.code).toBe('OLLAMA_BAD_RESPONSE');
    expect(answer.text).toMatch(/^Ollama's reply was cut off or malformed .*`ollama serve`/);
    expect(events.at(-1)).toEqual({
      type: 'error',
      code: 'OLLAMA_BAD_RESPONSE',
      message: answer.text,
      fromModel: true,
    });
  });

  it('explains a body cut short when not streaming', async () => {
    const { answer } = await answerWith({ content: 'partial answer', fault: 'cut-stream' });
    expect(answer.error?.code).toBe('OLLAMA_BAD_RESPONSE');
  });

  it('explains a malformed body', async () => {
    const { answer } = await answerWith({ fault: 'malformed-line' });
    expect(answer.error?.code).toBe('OLLAMA_BAD_RESPONSE');
    expect(answer.text).toContain('`ollama serve`');
  });

  it('survives a malformed line in a stream, which the client skips', async () => {
    const { answer } = await answerWith(
      { content: 'All good here.', fault: 'malformed-line' },
      { stream: true },
    );
    expect(answer.error).toBeUndefined();
    expect(answer.text).toBe('All good here.');
  });

  it('explains an error in the middle of a stream', async () => {
    const { answer } = await answerWith(
      { content: 'one two three', fault: 'error-line', errorMessage: 'out of memory' },
      { stream: true },
    );
    expect(answer.error?.code).toBe('OLLAMA_STREAM_ERROR');
    expect(answer.text).toContain('out of memory');
  });

  it('explains a reset connection', async () => {
    const { answer } = await answerWith({ fault: 'reset' });
    expect(answer.error?.code).toBe('OLLAMA_CONNECTION_LOST');
    expect(answer.text).toContain('`ollama serve`');
  });

  it('explains a timeout', async () => {
    fake = await startFakeOllama({ replies: [{ fault: 'hang' }] });
    const agent = createAgent({
      ollama: { host: fake.url, model: 'llama3.2:3b' },
      tools: [],
      memory: false,
      requestTimeoutMs: 100,
    });
    const answer = await agent.answer('Hello');
    expect(answer.error?.code).toBe('OLLAMA_TIMEOUT');
    expect(answer.text).toMatch(/^Ollama did not answer within 100 ms: .*`ollama pull llama3.2:3b`/);
  });

  it('keeps the tool calls made before Ollama failed', async () => {
    fake = await startFakeOllama({ replies: ['FETCH_URL: https://a.example', { fault: 'http-500' }] });
    const agent = createAgent({
      ollama: { host: fake.url, model: 'gemma2:2b' },
      tools: [recordingTool('FETCH_URL')],
      memory: false,
    });
    const answer = await agent.answer('Hello');
    expect(answer).toMatchObject({
      llmCalls: 2,
      toolCalls: [{ tool: 'FETCH_URL' }],
      error: { code: 'OLLAMA_SERVER_ERROR' },
    });
  });
});

describe('cancellation', () => {
  it('rejects with the abort reason when the caller aborts a request that hangs', async () => {
    fake = await startFakeOllama({ replies: [{ fault: 'hang' }] });
    const agent = createAgent({ ollama: { host: fake.url, model: 'gemma2:2b' }, tools: [], memory: false });
    const controller = new AbortController();
    const pending = agent.answer('Hello', { signal: controller.signal });
    await until(() => fake.requests.length === 1);
    controller.abort();
    await expect(pending).rejects.toMatchObject({ name: 'AbortError' });
  });

  it('aborts a streaming request too', async () => {
    fake = await startFakeOllama({ replies: [{ content: 'a b c d e f g h', chunkDelayMs: 200 }] });
    const agent = createAgent({ ollama: { host: fake.url, model: 'gemma2:2b' }, tools: [], memory: false });
    const controller = new AbortController();
    const tokens: string[] = [];
    const pending = agent.answer('Hello', {
      signal: controller.signal,
      onEvent: (event) => {
        if (event.type === 'token') {
          tokens.push(event.text);
          controller.abort(new Error('user left'));
        }
      },
    });
    await expect(pending).rejects.toThrow('user left');
    expect(tokens).toHaveLength(1);
  });

  it('aborts the running tool through its signal', async () => {
    fake = await startFakeOllama({ replies: ['RUN_CMD: sleep'] });
    const controller = new AbortController();
    const slow = recordingTool(
      'RUN_CMD',
      (_argument, context) =>
        new Promise<string>((_resolve, reject) =>
          context.signal.addEventListener('abort', () => reject(context.signal.reason)),
        ),
    );
    const agent = createAgent({
      ollama: { host: fake.url, model: 'gemma2:2b' },
      tools: [slow],
      memory: false,
    });
    const pending = agent.answer('Wait', { signal: controller.signal });
    await until(() => slow.calls.length === 1);
    controller.abort();
    await expect(pending).rejects.toMatchObject({ name: 'AbortError' });
    expect(slow.contexts[0]?.signal.aborted).toBe(true);
  });

  it('aborts one answer without touching another running at the same time', async () => {
    fake = await startFakeOllama({
      reply: (request) => (promptTextOf(request).includes('slow') ? { fault: 'hang' } : 'Quick answer.'),
    });
    const agent = createAgent({ ollama: { host: fake.url, model: 'gemma2:2b' }, tools: [], memory: false });
    const controller = new AbortController();
    const slow = agent.answer('slow question', { signal: controller.signal });
    await until(() => fake.requests.length === 1);
    const quick = agent.answer('quick question');
    controller.abort();
    await expect(slow).rejects.toMatchObject({ name: 'AbortError' });
    expect((await quick).text).toBe('Quick answer.');
    expect((await agent.answer('another quick one')).text).toBe('Quick answer.');
  });

  it('rejects at once when the signal is already aborted', async () => {
    fake = await startFakeOllama();
    const agent = createAgent({ ollama: { host: fake.url, model: 'gemma2:2b' }, tools: [], memory: false });
    await expect(agent.answer('Hello', { signal: AbortSignal.abort() })).rejects.toMatchObject({
      name: 'AbortError',
    });
    expect(fake.requests).toHaveLength(0);
  });
});
