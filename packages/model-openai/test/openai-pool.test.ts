import { createAgent, createModelPool, type ModelPool } from '@macstats/core';
import { type FakeOpenAi, type FakeOpenAiOptions, startFakeOpenAi } from '@macstats/testing';
import { afterEach, describe, expect, it } from 'vitest';
import { createOpenAiPoolMember } from '../src/index.js';

const model = 'local-model';
let servers: FakeOpenAi[] = [];
let pool: ModelPool | undefined;
afterEach(async () => {
  pool?.close();
  pool = undefined;
  await Promise.all(servers.map((server) => server.close()));
  servers = [];
});

/** A fake server that answers each question with its own name and the question, after `delayMs`. */
async function server(name: string, delayMs = 0, options: FakeOpenAiOptions = {}): Promise<FakeOpenAi> {
  const started = await startFakeOpenAi({
    reply: (request) => ({ content: `${name} answers ${String(request.messages.at(-1)?.content)}`, delayMs }),
    ...options,
  });
  servers.push(started);
  return started;
}

function poolOf(...fakes: FakeOpenAi[]): ModelPool {
  pool = createModelPool({
    members: fakes.map((fake) => createOpenAiPoolMember({ baseUrl: fake.url, model })),
  });
  return pool;
}

async function until(check: () => boolean): Promise<void> {
  while (!check()) await new Promise((resolve) => setTimeout(resolve, 5));
}

const ask = (content: string, stream = false) => ({
  messages: [{ role: 'user' as const, content }],
  ...(stream ? { onToken: () => {} } : {}),
});
const question = (text: string | undefined) => text?.split(' answers ')[1];

describe('a pool of two OpenAI-compatible servers', () => {
  it('spreads requests made at once evenly over both servers', async () => {
    const [a, b] = [await server('a', 50), await server('b', 50)];
    const both = poolOf(a, b);
    await both.checkHealth();
    const replies = await Promise.all(
      Array.from({ length: 20 }, (_, index) => both.chat(ask(`q${index}`, index % 2 === 0))),
    );
    expect(replies.map((reply) => question(reply.content))).toEqual(
      Array.from({ length: 20 }, (_, index) => `q${index}`),
    );
    expect([a.requests.length, b.requests.length]).toEqual([10, 10]);
  });

  it('sends requests to the server with fewer in flight, not in turns', async () => {
    let release = () => {};
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    const busy = await server('busy', 0, {
      reply: async (request) => {
        await held;
        return `busy answers ${String(request.messages.at(-1)?.content)}`;
      },
    });
    const free = await server('free');
    const both = poolOf(busy, free);
    await both.checkHealth();
    const slow = both.chat(ask('first'));
    await until(() => busy.requests.length === 1);
    for (let index = 0; index < 4; index += 1) {
      expect((await both.chat(ask(`q${index}`))).content).toBe(`free answers q${index}`);
    }
    expect(both.members().map((member) => member.inFlight)).toEqual([1, 0]);
    release();
    expect((await slow).content).toBe('busy answers first');
    expect([busy.requests.length, free.requests.length]).toEqual([1, 4]);
  });

  it('still answers every question when one server is closed with requests under way', async () => {
    const a = await server('a', 20);
    // b takes requests and never answers them, so they are surely under way when it goes.
    const b = await server('b', 0, { reply: () => ({ fault: 'hang' }) });
    const both = poolOf(a, b);
    await both.checkHealth();
    const questions = Array.from({ length: 30 }, (_, index) => `q${index}`);
    const answers = questions
      .slice(0, 10)
      .map((text, index) => both.chat(ask(text, index % 2 === 0)).then((reply) => reply.content));
    await until(() => b.requests.length >= 4);
    await b.close();
    for (const [index, text] of questions.slice(10).entries()) {
      answers.push(both.chat(ask(text, index % 2 === 0)).then((reply) => reply.content));
    }
    const texts = await Promise.all(answers);
    expect(texts.map(question)).toEqual(questions);
    expect(texts.every((text) => text.startsWith('a answers'))).toBe(true);
    expect(both.members().map((member) => member.healthy)).toEqual([true, false]);
  });

  it('never sends a request to a server that does not list the model', async () => {
    const other = await server('other', 0, { models: [{ id: 'another-model' }] });
    const has = await server('has');
    const both = poolOf(other, has);
    await both.checkHealth();
    const replies = await Promise.all(Array.from({ length: 6 }, (_, index) => both.chat(ask(`q${index}`))));
    expect(replies.every((reply) => reply.content.startsWith('has answers'))).toBe(true);
    expect(other.requests).toHaveLength(0);
    expect(both.members()[0]?.models).toEqual(['another-model']);
  });

  it('prefers a server whose listing says the model is loaded while it is free', async () => {
    // LM Studio-like: listed, with no word on memory. llama-server router: says `loaded`.
    const unknown = await server('unknown');
    const warm = await server('warm', 0, { models: [{ id: model, ownedBy: 'llamacpp', status: 'loaded' }] });
    const both = poolOf(unknown, warm);
    await both.checkHealth();
    for (let index = 0; index < 3; index += 1) await both.chat(ask(`q${index}`));
    expect([unknown.requests.length, warm.requests.length]).toEqual([0, 3]);
    expect(both.members().map((member) => member.loaded)).toEqual([[], [model]]);
  });

  it('serves an agent as its model when one server is down from the start', async () => {
    const [a, b] = [await server('a'), await server('b')];
    const both = poolOf(a, b);
    await b.close();
    const answer = await createAgent({ model: both, tools: [] }).answer('hello');
    expect(answer.error).toBeUndefined();
    expect(answer.text).toContain('a answers');
  });
});

describe('createOpenAiPoolMember: status', () => {
  it('reads what is loaded from what each kind of server says', async () => {
    const fake = await startFakeOpenAi({
      models: [
        { id: 'router-loaded', ownedBy: 'llamacpp', status: 'loaded' },
        { id: 'router-loading', ownedBy: 'llamacpp', status: 'loading' },
        { id: 'router-unloaded', ownedBy: 'llamacpp', status: 'unloaded' },
        { id: 'vllm-served', ownedBy: 'vllm' },
        { id: 'llama-server-one', ownedBy: 'llamacpp' },
        { id: 'llama3.2:latest', ownedBy: 'library' },
        { id: 'lm-studio-downloaded', ownedBy: 'organization_owner' },
      ],
    });
    servers.push(fake);
    const member = createOpenAiPoolMember({ baseUrl: fake.url, model });
    const status = await member.status?.(AbortSignal.timeout(5000));
    expect(status?.models).toHaveLength(7);
    expect(status?.loaded).toEqual(['router-loaded', 'vllm-served', 'llama-server-one']);
    expect(fake.log.map((entry) => `${entry.method} ${entry.path}`)).toEqual(['GET /v1/models']);
  });

  it('sends the API key, and a refused key marks the member down', async () => {
    const guarded = await server('guarded', 0, { apiKey: 'sk-pool' });
    pool = createModelPool({
      members: [
        createOpenAiPoolMember({ baseUrl: guarded.url, model, apiKey: 'wrong' }),
        createOpenAiPoolMember({ baseUrl: guarded.url, model, apiKey: 'sk-pool' }),
      ],
    });
    await pool.checkHealth();
    expect(pool.members().map((member) => member.healthy)).toEqual([false, true]);
    expect((await pool.chat(ask('q'))).content).toBe('guarded answers q');
  });
});
