import { createAgent, MacstatsError, type Tool } from '@macstats/core';
import { type FakeOpenAi, startFakeOpenAi } from '@macstats/testing';
import { afterEach, describe, expect, it } from 'vitest';
import { checkOpenAi, createOpenAiModel } from '../src/index.js';

let fake: FakeOpenAi | undefined;
afterEach(async () => {
  await fake?.close();
  fake = undefined;
});

async function start(options: Parameters<typeof startFakeOpenAi>[0] = {}) {
  fake = await startFakeOpenAi(options);
  return { fake, model: createOpenAiModel({ baseUrl: fake.url, model: 'local-model' }) };
}

const question = [{ role: 'user' as const, content: 'What is 2 + 3?' }];
const addDefinition = {
  name: 'ADD',
  description: 'Adds two numbers.',
  parameters: {
    type: 'object',
    properties: { a: { type: 'number' }, b: { type: 'number' } },
    required: ['a', 'b'],
  },
};

async function failure(promise: Promise<unknown>): Promise<MacstatsError> {
  const error = await promise.then(
    () => undefined,
    (caught: unknown) => caught,
  );
  expect(MacstatsError.isInstance(error)).toBe(true);
  return error as MacstatsError;
}

describe('createOpenAiModel: chat', () => {
  it('streams the content piece by piece and reads the usage chunk', async () => {
    const { model, fake } = await start({
      replies: [{ content: 'It is five.', completionTokens: 4, promptTokens: 12 }],
    });
    const pieces: string[] = [];
    const reply = await model.chat({ messages: question, onToken: (text) => pieces.push(text) });
    expect(reply.content).toBe('It is five.');
    expect(pieces.join('')).toBe('It is five.');
    expect(pieces.length).toBeGreaterThan(1);
    expect(reply.usage.promptTokens).toBe(12);
    expect(reply.usage.completionTokens).toBe(4);
    expect(reply.usage.tokensPerSecond).toBeGreaterThan(0);
    expect(fake.requests[0]?.stream_options).toEqual({ include_usage: true });
  });

  it('assembles streamed tool-call fragments by index into calls with object arguments', async () => {
    const { model } = await start({
      replies: [
        {
          toolCalls: [
            { name: 'ADD', arguments: { a: 2, b: 3 } },
            { name: 'ADD', arguments: { a: 10, b: 20, note: 'a longer argument, split in many fragments' } },
          ],
          argumentFragmentChars: 3,
        },
      ],
    });
    const reply = await model.chat({ messages: question, tools: [addDefinition], onToken: () => {} });
    expect(reply.toolCalls).toEqual([
      { id: 'call_0_0', name: 'ADD', arguments: { a: 2, b: 3 } },
      {
        id: 'call_0_1',
        name: 'ADD',
        arguments: { a: 10, b: 20, note: 'a longer argument, split in many fragments' },
      },
    ]);
  });

  it('reads tool calls and usage from a reply that is not streamed', async () => {
    const { model, fake } = await start({
      replies: [{ toolCalls: [{ name: 'ADD', arguments: { a: 1, b: 1 } }], promptTokens: 9 }],
    });
    const reply = await model.chat({ messages: question, tools: [addDefinition] });
    expect(reply.toolCalls).toEqual([{ id: 'call_0_0', name: 'ADD', arguments: { a: 1, b: 1 } }]);
    expect(reply.usage.promptTokens).toBe(9);
    expect(fake.requests[0]?.stream).toBe(false);
    expect(fake.requests[0]?.tools?.[0]?.function.name).toBe('ADD');
  });

  it('pairs each tool result with its call by id, making ids for calls that had none', async () => {
    const { model, fake } = await start({ replies: ['Done.'] });
    await model.chat({
      messages: [
        ...question,
        {
          role: 'assistant',
          content: '',
          toolCalls: [
            { name: 'ADD', arguments: { a: 2, b: 3 } },
            { id: 'server-id', name: 'ADD', arguments: { a: 1, b: 1 } },
          ],
        },
        { role: 'tool', toolName: 'ADD', content: '5' },
        { role: 'tool', toolName: 'ADD', toolCallId: 'server-id', content: '2' },
      ],
    });
    const sent = fake.requests[0]?.messages ?? [];
    expect(sent[1]?.tool_calls?.map((call) => call.id)).toEqual(['call_1', 'server-id']);
    expect(sent[1]?.tool_calls?.[0]?.function.arguments).toBe('{"a":2,"b":3}');
    expect(sent.slice(2).map((message) => message.tool_call_id)).toEqual(['call_1', 'server-id']);
  });

  it('sends images as data URLs in content parts', async () => {
    const { model, fake } = await start();
    await model.chat({ messages: [{ role: 'user', content: 'What is this?', images: ['iVBORw0KGgo='] }] });
    expect(fake.requests[0]?.messages[0]?.content).toEqual([
      { type: 'text', text: 'What is this?' },
      { type: 'image_url', image_url: { url: 'data:image/png;base64,iVBORw0KGgo=' } },
    ]);
  });

  it('asks for another model of the same server when the request names one', async () => {
    const { model, fake } = await start({ models: [{ id: 'local-model' }, { id: 'big' }] });
    await model.chat({ messages: question, model: 'big' });
    expect(fake.requests[0]?.model).toBe('big');
  });
});

describe('createOpenAiModel: failures', () => {
  it("says the server is unreachable, naming the app's setting only when the app gives its name", async () => {
    const { fake } = await start();
    const url = fake.url;
    await fake.close();
    const model = createOpenAiModel({
      baseUrl: url,
      model: 'local-model',
      settingNames: { host: 'OPENAI_BASE_URL', model: 'OPENAI_MODEL', apiKey: 'OPENAI_API_KEY' },
    });
    const error = await failure(model.chat({ messages: question }));
    expect(error.code).toBe('OPENAI_UNREACHABLE');
    expect(model.describeError?.(error)).toMatch(/not reachable at .*OPENAI_BASE_URL/);
    const plain = createOpenAiModel({ baseUrl: url, model: 'local-model' });
    expect(plain.describeError?.(error)).not.toMatch(/[A-Z]+_[A-Z]+/);
  });

  it('says the model is not served, naming OPENAI_MODEL', async () => {
    const { fake } = await start();
    const model = createOpenAiModel({
      baseUrl: fake.url,
      model: 'missing',
      settingNames: { host: 'OPENAI_BASE_URL', model: 'OPENAI_MODEL', apiKey: 'OPENAI_API_KEY' },
    });
    const error = await failure(model.chat({ messages: question }));
    expect(error.code).toBe('OPENAI_MODEL_NOT_FOUND');
    expect(model.describeError?.(error)).toMatch(/"missing".*OPENAI_MODEL/);
  });

  it('says the key was refused, naming OPENAI_API_KEY, and sends the key it is given', async () => {
    const { fake } = await start({ apiKey: 'secret' });
    const wrong = createOpenAiModel({
      baseUrl: fake.url,
      model: 'local-model',
      apiKey: 'wrong',
      settingNames: { host: 'OPENAI_BASE_URL', model: 'OPENAI_MODEL', apiKey: 'OPENAI_API_KEY' },
    });
    const error = await failure(wrong.chat({ messages: question }));
    expect(error.code).toBe('OPENAI_UNAUTHORIZED');
    expect(wrong.describeError?.(error)).toMatch(/OPENAI_API_KEY/);
    const right = createOpenAiModel({ baseUrl: fake.url, model: 'local-model', apiKey: 'secret' });
    expect((await right.chat({ messages: question })).content).toMatch(/fake/);
  });

  it('reports a refusal of tools as OPENAI_TOOLS_UNSUPPORTED', async () => {
    const { model } = await start({ toolsSupported: false });
    const error = await failure(model.chat({ messages: question, tools: [addDefinition] }));
    expect(error.code).toBe('OPENAI_TOOLS_UNSUPPORTED');
    expect(error.unsupported).toBe('tools');
    expect(model.describeError?.(error)).toMatch(/--jinja/);
  });

  it('maps a 500 to OPENAI_SERVER_ERROR with the server message', async () => {
    const { model } = await start({ replies: [{ fault: 'http-500', errorMessage: 'CUDA out of memory' }] });
    const error = await failure(model.chat({ messages: question, onToken: () => {} }));
    expect(error.code).toBe('OPENAI_SERVER_ERROR');
    expect(error.message).toMatch(/CUDA out of memory/);
  });

  it('maps a stream cut half-way to OPENAI_BAD_RESPONSE', async () => {
    const { model } = await start({ replies: [{ content: 'one two three', fault: 'cut-stream' }] });
    const error = await failure(model.chat({ messages: question, onToken: () => {} }));
    expect(error.code).toBe('OPENAI_BAD_RESPONSE');
  });

  it('maps a chunk that is not JSON to OPENAI_BAD_RESPONSE', async () => {
    const { model } = await start({ replies: [{ content: 'one two three', fault: 'malformed-chunk' }] });
    const error = await failure(model.chat({ messages: question, onToken: () => {} }));
    expect(error.code).toBe('OPENAI_BAD_RESPONSE');
  });

  it('maps an error event in the stream to OPENAI_STREAM_ERROR', async () => {
    const { model } = await start({
      replies: [{ content: 'one two', fault: 'error-event', errorMessage: 'boom' }],
    });
    const error = await failure(model.chat({ messages: question, onToken: () => {} }));
    expect(error.code).toBe('OPENAI_STREAM_ERROR');
    expect(error.message).toMatch(/boom/);
  });

  it('gives up on a hung server after the time limit with OPENAI_TIMEOUT', async () => {
    const { model } = await start({ replies: [{ fault: 'hang' }] });
    const error = await failure(model.chat({ messages: question, firstTokenTimeoutMs: 50 }));
    expect(error.code).toBe('OPENAI_TIMEOUT');
  });

  it('ends a reply that stalls mid-stream with OPENAI_STALLED, after waiting out a slow first token', async () => {
    const { model } = await start({ replies: [{ content: 'one two three', fault: 'stall', delayMs: 150 }] });
    const error = await failure(
      model.chat({
        messages: question,
        onToken: () => {},
        firstTokenTimeoutMs: 60_000,
        betweenTokensTimeoutMs: 40,
      }),
    );
    expect(error.code).toBe('OPENAI_STALLED');
    expect(model.describeError?.(error)).toMatch(
      /^The model "local-model" stopped .* in the middle of its reply, so the answer was ended/,
    );
  });

  it("rejects with the caller's reason when the caller aborts", async () => {
    const { model, fake } = await start({ replies: [{ fault: 'hang' }] });
    const controller = new AbortController();
    const pending = model.chat({ messages: question, signal: controller.signal, onToken: () => {} });
    await expect.poll(() => fake.requests.length).toBe(1);
    const reason = new Error('user left');
    controller.abort(reason);
    await expect(pending).rejects.toBe(reason);
  });
});

describe('createOpenAiModel: capabilities and checks', () => {
  it("takes the context length from vLLM's max_model_len in /v1/models", async () => {
    const { model } = await start({
      models: [{ id: 'local-model', maxModelLen: 32768 }],
      propsContextLength: 4096,
    });
    expect(await model.capabilities()).toEqual({
      tools: true,
      vision: false,
      thinking: false,
      contextLength: 32768,
    });
  });

  it("falls back to llama-server's /props n_ctx", async () => {
    const { model } = await start({ propsContextLength: 16384 });
    expect((await model.capabilities()).contextLength).toBe(16384);
  });

  it('reports no context length when the server says none', async () => {
    const { model } = await start({ propsContextLength: null });
    expect((await model.capabilities()).contextLength).toBeNull();
  });

  it('checkOpenAi finds the model listed, or names the ones that are', async () => {
    const { fake } = await start({ models: [{ id: 'a' }, { id: 'b' }] });
    const good = await checkOpenAi({ baseUrl: fake.url, model: 'b' });
    expect(good).toMatchObject({ ok: true, reachable: true, models: ['a', 'b'], model: 'b', problem: null });
    const bad = await checkOpenAi({ baseUrl: fake.url, model: 'c', settingNames: { model: 'OPENAI_MODEL' } });
    expect(bad.ok).toBe(false);
    expect(bad.problem).toMatch(/"c".*OPENAI_MODEL.*a, b/);
  });

  it('checkOpenAi says when the server is not reachable', async () => {
    const { fake } = await start();
    const url = fake.url;
    await fake.close();
    const check = await checkOpenAi({ baseUrl: url, model: 'x' });
    expect(check).toMatchObject({ ok: false, reachable: false });
    expect(check.problem).toMatch(/not reachable/);
  });
});

describe('the agent on an OpenAI-compatible server', () => {
  const add: Tool = {
    name: 'ADD',
    description: 'Adds two numbers.',
    usage: 'ADD: {"a": <number>, "b": <number>}',
    parameters: addDefinition.parameters,
    run: async (_argument, context) => String(Number(context.arguments?.a) + Number(context.arguments?.b)),
  };

  it('answers with a native tool call whose result goes back paired by id', async () => {
    const { model, fake } = await start({
      replies: [{ toolCalls: [{ name: 'ADD', arguments: { a: 2, b: 3 } }] }, 'The sum is 5.'],
    });
    const agent = createAgent({ model, tools: [add], memory: false });
    const events: string[] = [];
    const answer = await agent.answer('What is 2 + 3?', { onEvent: (event) => events.push(event.type) });
    expect(answer.text).toBe('The sum is 5.');
    expect(answer.toolCalls.map((call) => call.result.text)).toEqual(['5']);
    const second = fake.requests[1]?.messages ?? [];
    const toolMessage = second.find((message) => message.role === 'tool');
    expect(toolMessage?.tool_call_id).toBe('call_0_0');
    expect(String(toolMessage?.content)).toContain('5');
    expect(events).toContain('token');
  });

  it('answers through the text protocol when the server refuses tools', async () => {
    const { model, fake } = await start({
      toolsSupported: false,
      replies: ['ADD: {"a": 2, "b": 3}', 'The sum is 5.'],
    });
    const agent = createAgent({ model, tools: [add], memory: false });
    const answer = await agent.answer('What is 2 + 3?');
    expect(answer.text).toBe('The sum is 5.');
    expect(answer.toolCalls[0]?.result.text).toBe('5');
    // The refused request, then the same call without tools, then the final one.
    expect(fake.requests.map((request) => (request.tools ?? []).length > 0)).toEqual([true, false, false]);
  });
});
