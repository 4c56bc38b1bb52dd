import OpenAI, { APIError } from 'openai';
import { afterEach, describe, expect, it } from 'vitest';
import { type FakeOpenAi, startFakeOpenAi } from '../src/index.js';

let fake: FakeOpenAi | undefined;
afterEach(async () => {
  await fake?.close();
  fake = undefined;
});

async function start(options: Parameters<typeof startFakeOpenAi>[0] = {}) {
  fake = await startFakeOpenAi(options);
  const client = new OpenAI({ baseURL: fake.url, apiKey: 'test-key', maxRetries: 0, logLevel: 'off' });
  return { fake, client };
}

const question = [{ role: 'user' as const, content: 'What is 2 + 3?' }];
const addTool = {
  type: 'function' as const,
  function: { name: 'ADD', description: 'adds', parameters: { type: 'object', properties: {} } },
};

describe('startFakeOpenAi', () => {
  it('lists its models at /v1/models, with max_model_len when given', async () => {
    const { client } = await start({ models: [{ id: 'qwen3-4b', maxModelLen: 32768 }, { id: 'other' }] });
    const ids: Array<{ id: string; max_model_len?: number }> = [];
    for await (const model of client.models.list()) ids.push(model as never);
    expect(ids.map((model) => [model.id, model.max_model_len])).toEqual([
      ['qwen3-4b', 32768],
      ['other', undefined],
    ]);
  });

  it('lists owned_by and llama-server router status when given, and serves an unloaded model', async () => {
    const { client } = await start({
      models: [{ id: 'router-model', ownedBy: 'llamacpp', status: 'unloaded' }, { id: 'plain' }],
    });
    const listed: Array<{ id: string; owned_by: string; status?: { value: string } }> = [];
    for await (const model of client.models.list()) listed.push(model as never);
    expect(listed.map((model) => [model.owned_by, model.status])).toEqual([
      ['llamacpp', { value: 'unloaded' }],
      ['fake', undefined],
    ]);
    const reply = await client.chat.completions.create({ model: 'router-model', messages: question });
    expect(reply.choices[0]?.message.content).toBeTruthy();
  });

  it('answers a chat with the scripted content and usage', async () => {
    const { client, fake } = await start({ replies: ['Five.'] });
    const reply = await client.chat.completions.create({ model: 'local-model', messages: question });
    expect(reply.choices[0]?.message.content).toBe('Five.');
    expect(reply.choices[0]?.finish_reason).toBe('stop');
    expect(reply.usage?.prompt_tokens).toBeGreaterThan(0);
    expect(fake.requests[0]?.messages).toEqual(question);
  });

  it('streams content chunks, tool-call fragments by index, then a usage chunk', async () => {
    const { client } = await start({
      replies: [
        {
          content: 'Let me add.',
          toolCalls: [{ name: 'ADD', arguments: { a: 2, b: 3 } }],
          completionTokens: 7,
        },
      ],
    });
    const stream = await client.chat.completions.create({
      model: 'local-model',
      messages: question,
      tools: [addTool],
      stream: true,
      stream_options: { include_usage: true },
    });
    let content = '';
    let args = '';
    let fragments = 0;
    let finish: string | null = null;
    let usage: { completion_tokens: number } | null | undefined;
    for await (const chunk of stream) {
      content += chunk.choices[0]?.delta.content ?? '';
      for (const call of chunk.choices[0]?.delta.tool_calls ?? []) {
        fragments++;
        expect(call.index).toBe(0);
        args += call.function?.arguments ?? '';
      }
      finish = chunk.choices[0]?.finish_reason ?? finish;
      usage = chunk.usage ?? usage;
    }
    expect(content).toBe('Let me add.');
    expect(JSON.parse(args)).toEqual({ a: 2, b: 3 });
    expect(fragments).toBeGreaterThan(2);
    expect(finish).toBe('tool_calls');
    expect(usage?.completion_tokens).toBe(7);
  });

  it('serves llama-server /props with the context size', async () => {
    const { fake } = await start({ propsContextLength: 16384 });
    const props = (await (await fetch(`${fake.origin}/props`)).json()) as {
      default_generation_settings: { n_ctx: number };
    };
    expect(props.default_generation_settings.n_ctx).toBe(16384);
  });

  it('serves no /props when told, as vLLM and LM Studio', async () => {
    const { fake } = await start({ propsContextLength: null });
    expect((await fetch(`${fake.origin}/props`)).status).toBe(404);
  });

  it('refuses a tool message that answers no earlier call, as real servers do', async () => {
    const { client } = await start();
    const error = await client.chat.completions
      .create({
        model: 'local-model',
        messages: [...question, { role: 'tool', tool_call_id: 'nope', content: '5' }],
      })
      .catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(APIError);
    expect((error as APIError).status).toBe(400);
  });

  it('answers 404 for a model it does not serve and 401 for a wrong key', async () => {
    const { client } = await start({ apiKey: 'right' });
    const unauthorised = await client.models.list().catch((caught: unknown) => caught);
    expect((unauthorised as APIError).status).toBe(401);
    const good = new OpenAI({ baseURL: fake?.url, apiKey: 'right', maxRetries: 0 });
    const missing = await good.chat.completions
      .create({ model: 'nope', messages: question })
      .catch((caught: unknown) => caught);
    expect((missing as APIError).status).toBe(404);
  });

  it('refuses tools with 400 when told to, as vLLM without a tool parser does', async () => {
    const { client } = await start({ toolsSupported: false });
    const error = await client.chat.completions
      .create({ model: 'local-model', messages: question, tools: [addTool] })
      .catch((caught: unknown) => caught);
    expect((error as APIError).status).toBe(400);
    expect((error as APIError).message).toMatch(/tool/);
  });

  it('fails with 500 on the http-500 fault', async () => {
    const { client } = await start({ replies: [{ fault: 'http-500', errorMessage: 'out of memory' }] });
    const error = await client.chat.completions
      .create({ model: 'local-model', messages: question })
      .catch((caught: unknown) => caught);
    expect((error as APIError).status).toBe(500);
    expect((error as APIError).message).toMatch(/out of memory/);
  });

  async function streamed(client: OpenAI) {
    const stream = await client.chat.completions.create({
      model: 'local-model',
      messages: question,
      stream: true,
    });
    let content = '';
    for await (const chunk of stream) content += chunk.choices[0]?.delta.content ?? '';
    return content;
  }

  it('cuts the stream after the first chunk on the cut-stream fault', async () => {
    const { client } = await start({ replies: [{ content: 'one two three', fault: 'cut-stream' }] });
    await expect(streamed(client)).rejects.toThrow();
  });

  it('sends a chunk that is not JSON on the malformed-chunk fault', async () => {
    const { client } = await start({ replies: [{ content: 'one two three', fault: 'malformed-chunk' }] });
    await expect(streamed(client)).rejects.toThrow(SyntaxError);
  });

  it('sends an error event mid-stream on the error-event fault', async () => {
    const { client } = await start({
      replies: [{ content: 'one two', fault: 'error-event', errorMessage: 'boom' }],
    });
    await expect(streamed(client)).rejects.toThrow(/boom/);
  });

  it('holds the request open on the hang fault until the client aborts', async () => {
    const { client, fake } = await start({ replies: [{ fault: 'hang' }] });
    const controller = new AbortController();
    const pending = client.chat.completions.create(
      { model: 'local-model', messages: question },
      { signal: controller.signal },
    );
    await expect.poll(() => fake.requests.length).toBe(1);
    controller.abort();
    await expect(pending).rejects.toThrow(/abort/i);
  });

  it('goes silent after the first chunk on the stall fault', async () => {
    const { client } = await start({ replies: [{ content: 'one two three', fault: 'stall' }] });
    const controller = new AbortController();
    const stream = await client.chat.completions.create(
      { model: 'local-model', messages: question, stream: true },
      { signal: controller.signal },
    );
    const seen: string[] = [];
    for await (const chunk of stream) {
      seen.push(chunk.choices[0]?.delta.content ?? '');
      // The role chunk and the first word come; then nothing, so the test gives up.
      if (seen.length === 2) controller.abort();
    }
    expect(seen).toEqual(['', 'one ']);
  });
});
