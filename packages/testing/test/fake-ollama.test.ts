import { Ollama } from 'ollama';
import { afterEach, describe, expect, it } from 'vitest';
import { type FakeOllama, startFakeOllama } from '../src/index.js';

let fake: FakeOllama | undefined;
afterEach(async () => {
  await fake?.close();
  fake = undefined;
});

async function start(options: Parameters<typeof startFakeOllama>[0] = {}) {
  fake = await startFakeOllama(options);
  return { fake, client: new Ollama({ host: fake.url }) };
}

function isJson(line: string): boolean {
  try {
    JSON.parse(line);
    return true;
  } catch {
    return false;
  }
}

const question = [{ role: 'user', content: 'What is the weather?' }];

describe('startFakeOllama', () => {
  it('listens on loopback on a free port', async () => {
    const { fake } = await start();
    expect(fake.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
  });

  it('answers a non-streaming chat with the queued reply and Ollama stats', async () => {
    const { client } = await start({ replies: ['Sunny and warm.'] });
    const response = await client.chat({ model: 'llama3.2:3b', messages: question });
    expect(response.message).toEqual({ role: 'assistant', content: 'Sunny and warm.' });
    expect(response.done).toBe(true);
    expect(response.done_reason).toBe('stop');
    expect(response.eval_count).toBeGreaterThan(0);
    expect(response.eval_duration).toBeGreaterThan(0);
    expect(response.prompt_eval_count).toBeGreaterThan(0);
  });

  it('streams NDJSON chunks then a done line with stats', async () => {
    const { client } = await start({
      replies: [{ content: 'one two three', chunks: ['one ', 'two ', 'three'] }],
    });
    const stream = await client.chat({ model: 'llama3.2:3b', messages: question, stream: true });
    const parts: string[] = [];
    let last: { done: boolean; eval_count?: number; done_reason?: string } | undefined;
    for await (const part of stream) {
      parts.push(part.message.content);
      last = part;
    }
    expect(parts.join('')).toBe('one two three');
    expect(last?.done).toBe(true);
    expect(last?.done_reason).toBe('stop');
    expect(last?.eval_count).toBe(3);
  });

  it('returns native tool calls with object arguments', async () => {
    const { client } = await start({
      replies: [{ toolCalls: [{ name: 'FETCH_URL', arguments: { argument: 'https://example.com' } }] }],
    });
    const response = await client.chat({
      model: 'llama3.2:3b',
      messages: question,
      tools: [{ type: 'function', function: { name: 'FETCH_URL', description: 'fetch', parameters: {} } }],
    });
    expect(response.message.tool_calls).toEqual([
      { function: { name: 'FETCH_URL', arguments: { argument: 'https://example.com' } } },
    ]);
  });

  it('streams tool calls in a done:false chunk', async () => {
    const { client } = await start({
      replies: [{ toolCalls: [{ name: 'RUN_CMD', arguments: { argument: 'ls' } }] }],
    });
    const stream = await client.chat({ model: 'qwen2.5:7b', messages: question, stream: true });
    const calls: unknown[] = [];
    for await (const part of stream) if (part.message.tool_calls) calls.push(...part.message.tool_calls);
    expect(calls).toEqual([{ function: { name: 'RUN_CMD', arguments: { argument: 'ls' } } }]);
  });

  it('records every chat request body, including tools, in order', async () => {
    const { fake, client } = await start({ replies: ['a', 'b'] });
    await client.chat({ model: 'llama3.2:3b', messages: [{ role: 'user', content: 'first' }] });
    await client.chat({
      model: 'llama3.2:3b',
      messages: [{ role: 'user', content: 'second' }],
      tools: [{ type: 'function', function: { name: 'X', description: 'x', parameters: {} } }],
    });
    expect(fake.requests.map((request) => request.messages[0]?.content)).toEqual(['first', 'second']);
    expect(fake.requests[1]?.tools?.[0]?.function.name).toBe('X');
    expect(fake.requests[0]?.stream).toBe(false);
  });

  it('computes replies from a function of the request once the queue is empty', async () => {
    const { client } = await start({
      replies: ['queued'],
      reply: (request, index) => `#${index} ${request.messages.at(-1)?.content}`,
    });
    const first = await client.chat({ model: 'llama3.2:3b', messages: question });
    const second = await client.chat({ model: 'llama3.2:3b', messages: [{ role: 'user', content: 'echo' }] });
    expect(first.message.content).toBe('queued');
    expect(second.message.content).toBe('#1 echo');
  });

  it('lists models, shows capabilities and reports a version', async () => {
    const { client } = await start();
    const tags = await client.list();
    expect(tags.models.map((model) => model.name)).toEqual(['llama3.2:3b', 'qwen2.5:7b', 'gemma2:2b']);
    const show = await client.show({ model: 'gemma2:2b' });
    expect((show as unknown as { capabilities: string[] }).capabilities).toEqual(['completion']);
    const version = await client.version();
    expect(version.version).toBe('0.12.0');
  });

  it('answers 404 in Ollama words for a model that is not pulled', async () => {
    const { client } = await start();
    await expect(client.chat({ model: 'llama3', messages: question })).rejects.toMatchObject({
      status_code: 404,
      error: 'model "llama3" not found, try pulling it first',
    });
  });

  it('answers 400 when tools are sent to a model without the tools capability', async () => {
    const { client } = await start();
    await expect(
      client.chat({
        model: 'gemma2:2b',
        messages: question,
        tools: [{ type: 'function', function: { name: 'X', description: 'x', parameters: {} } }],
      }),
    ).rejects.toMatchObject({ status_code: 400 });
  });

  it('injects HTTP 500 on demand', async () => {
    const { client } = await start({ replies: [{ fault: 'http-500', errorMessage: 'out of memory' }] });
    await expect(client.chat({ model: 'llama3.2:3b', messages: question })).rejects.toMatchObject({
      status_code: 500,
      error: 'out of memory',
    });
  });

  it('injects a model-not-found 404 on demand for a listed model', async () => {
    const { client } = await start({ replies: [{ fault: 'model-not-found' }] });
    await expect(client.chat({ model: 'llama3.2:3b', messages: question })).rejects.toMatchObject({
      status_code: 404,
    });
  });

  it('delays a reply on demand', async () => {
    const { client } = await start({ replies: [{ content: 'late', delayMs: 150 }] });
    const started = performance.now();
    const response = await client.chat({ model: 'llama3.2:3b', messages: question });
    expect(response.message.content).toBe('late');
    expect(performance.now() - started).toBeGreaterThanOrEqual(140);
  });

  it('hangs forever on demand until the request is aborted', async () => {
    const { fake } = await start({ replies: [{ fault: 'hang' }] });
    // ollama-js's abort() only reaches streams that already have headers, so the signal goes in through fetch.
    const controller = new AbortController();
    const client = new Ollama({
      host: fake.url,
      fetch: (input, init) => fetch(input, { ...init, signal: controller.signal }),
    });
    const pending = client.chat({ model: 'llama3.2:3b', messages: question });
    setTimeout(() => controller.abort(), 100);
    await expect(pending).rejects.toThrow(/abort/i);
  });

  it('sends a malformed NDJSON line, which the client skips', async () => {
    const { fake, client } = await start({
      replies: [
        { content: 'a b c', fault: 'malformed-line' },
        { content: 'a b c', fault: 'malformed-line' },
      ],
    });
    const raw = await fetch(`${fake.url}/api/chat`, {
      method: 'POST',
      body: JSON.stringify({ model: 'llama3.2:3b', messages: question, stream: true }),
    });
    const lines = (await raw.text()).trim().split('\n');
    expect(lines.filter((line) => !isJson(line))).toEqual(['{"model": this is not json']);
    const stream = await client.chat({ model: 'llama3.2:3b', messages: question, stream: true });
    let text = '';
    for await (const part of stream) text += part.message.content;
    expect(text).toBe('a b c');
  });

  it('sends a malformed body when not streaming', async () => {
    const { client } = await start({ replies: [{ fault: 'malformed-line' }] });
    await expect(client.chat({ model: 'llama3.2:3b', messages: question })).rejects.toThrow();
  });

  it('cuts a stream before its done line, which the client reports', async () => {
    const { client } = await start({ replies: [{ content: 'a b c', fault: 'cut-stream' }] });
    const stream = await client.chat({ model: 'llama3.2:3b', messages: question, stream: true });
    await expect(
      (async () => {
        for await (const _ of stream) {
          /* drain */
        }
      })(),
    ).rejects.toThrow(/done/i);
  });

  it('cuts a non-streaming body short', async () => {
    const { client } = await start({ replies: [{ fault: 'cut-stream' }] });
    await expect(client.chat({ model: 'llama3.2:3b', messages: question })).rejects.toThrow();
  });

  it('sends an error line mid-stream whose message the client throws', async () => {
    const { client } = await start({
      replies: [{ content: 'a b', fault: 'error-line', errorMessage: 'gpu fell over' }],
    });
    const stream = await client.chat({ model: 'llama3.2:3b', messages: question, stream: true });
    await expect(
      (async () => {
        for await (const _ of stream) {
          /* drain */
        }
      })(),
    ).rejects.toThrow('gpu fell over');
  });

  it('resets the connection on demand', async () => {
    const { client } = await start({ replies: [{ fault: 'reset' }] });
    await expect(client.chat({ model: 'llama3.2:3b', messages: question })).rejects.toThrow();
  });

  it('closes while a request hangs', async () => {
    const { fake, client } = await start({ replies: [{ fault: 'hang' }] });
    const pending = client
      .chat({ model: 'llama3.2:3b', messages: question })
      .catch((error: unknown) => error);
    await new Promise((resolve) => setTimeout(resolve, 50));
    await fake.close();
    expect(await pending).toBeInstanceOf(Error);
  });
});

describe('startFakeOllama: loading and stalls', () => {
  it('makes the first request of a model wait for its load, lists it in /api/ps after, and not before', async () => {
    const { client, fake } = await start({
      models: [{ name: 'slow:1b', loadDelayMs: 50 }],
      replies: ['one', 'two'],
    });
    expect((await client.ps()).models).toEqual([]);
    await client.chat({ model: 'slow:1b', messages: question });
    expect((await client.ps()).models.map((model) => model.name)).toEqual(['slow:1b']);
    expect(fake.loaded()).toEqual(['slow:1b']);
    fake.unload('slow:1b');
    expect((await client.ps()).models).toEqual([]);
  });

  it('lists a model without a load delay as loaded from the start, unless told it is not', async () => {
    const { client } = await start({ models: [{ name: 'warm:1b' }, { name: 'cold:1b', loaded: false }] });
    expect((await client.ps()).models.map((model) => model.name)).toEqual(['warm:1b']);
  });

  it('reports a context length in /api/show when given', async () => {
    const { client } = await start({ models: [{ name: 'long:1b', family: 'qwen3', contextLength: 40960 }] });
    const show = await client.show({ model: 'long:1b' });
    expect((show.model_info as unknown as Record<string, unknown>)['qwen3.context_length']).toBe(40960);
  });

  it('sends the first chunk and then nothing on the stall fault', async () => {
    const { client } = await start({ replies: [{ content: 'one two three', fault: 'stall' }] });
    const stream = await client.chat({ model: 'llama3.2:3b', messages: question, stream: true });
    const seen: string[] = [];
    const ended = (async () => {
      for await (const part of stream) seen.push(part.message.content);
    })().catch((error: unknown) => error);
    // Only the first word comes; the test ends the wait itself.
    await expect.poll(() => seen.length).toBe(1);
    stream.abort();
    expect((await ended) as Error).toHaveProperty('name', 'AbortError');
    expect(seen).toEqual(['one ']);
  });
});

describe('startFakeOllama: the context window', () => {
  const long = (words: number) => Array.from({ length: words }, (_, index) => `word${index}`).join(' ');

  it('cuts the front of a prompt longer than num_ctx and reports what it kept', async () => {
    const { client, fake } = await start({ models: [{ name: 'small:1b', contextLength: 8192 }] });
    const response = await client.chat({
      model: 'small:1b',
      messages: [
        { role: 'system', content: 'SYSTEM PROMPT' },
        { role: 'user', content: long(2000) },
        { role: 'user', content: 'THE QUESTION' },
      ],
      options: { num_ctx: 1024 },
    });
    const prompt = fake.prompts[0];
    expect(prompt?.cut).toBe(true);
    expect(prompt?.window).toBe(1024);
    expect(response.prompt_eval_count).toBe(1024);
    expect(prompt?.messages.map((message) => message.content)).not.toContain('SYSTEM PROMPT');
    expect(prompt?.messages.at(-1)?.content).toBe('THE QUESTION');
  });

  it('uses the default window when no num_ctx is sent, and never more than the model serves', async () => {
    const { client, fake } = await start({
      models: [{ name: 'small:1b', contextLength: 32768, servedContextLength: 4096 }],
      defaultContextLength: 2048,
    });
    const messages = [{ role: 'user', content: long(1000) }];
    await client.chat({ model: 'small:1b', messages });
    await client.chat({ model: 'small:1b', messages, options: { num_ctx: 16384 } });
    expect(fake.prompts.map((prompt) => [prompt.window, prompt.cut])).toEqual([
      [2048, true],
      [4096, false],
    ]);
  });

  it('reports only the prompt tokens its cache did not hold, as Ollama does', async () => {
    const { client, fake } = await start({ models: [{ name: 'small:1b', contextLength: 8192 }] });
    const first = [
      { role: 'system', content: long(300) },
      { role: 'user', content: 'question' },
    ];
    const one = await client.chat({ model: 'small:1b', messages: first, options: { num_ctx: 4096 } });
    const two = await client.chat({
      model: 'small:1b',
      messages: [...first, { role: 'assistant', content: 'ok' }, { role: 'user', content: 'more' }],
      options: { num_ctx: 4096 },
    });
    expect(one.prompt_eval_count).toBe(fake.prompts[0]?.tokens);
    expect(two.prompt_eval_count).toBeLessThan(20);
    expect(fake.prompts[1]?.kept).toBeGreaterThan(one.prompt_eval_count);
  });

  it('enforces no window for a model without a context length', async () => {
    const { client, fake } = await start();
    await client.chat({ model: 'llama3.2:3b', messages: [{ role: 'user', content: long(5000) }] });
    expect(fake.prompts[0]).toMatchObject({ window: null, cut: false });
  });
});
