import { type FakeOllama, startFakeOllama } from '@macstats/testing';
import { afterEach, describe, expect, it } from 'vitest';
import { createAgent, createModelPool, createOllamaPoolMember, type ModelPool } from '../src/index.js';

const model = 'llama3.2:3b';
let servers: FakeOllama[] = [];
let pool: ModelPool | undefined;
afterEach(async () => {
  pool?.close();
  await Promise.all(servers.map((server) => server.close()));
  servers = [];
});

/** A fake Ollama that answers each question with its own name and the question, after `delayMs`. */
async function host(name: string, delayMs: number, loaded: string[] = []): Promise<FakeOllama> {
  const server = await startFakeOllama({
    loaded,
    reply: (request) => ({ content: `${name} answers ${request.messages.at(-1)?.content ?? ''}`, delayMs }),
  });
  servers.push(server);
  return server;
}

async function until(check: () => boolean): Promise<void> {
  while (!check()) await new Promise((resolve) => setTimeout(resolve, 5));
}

const ask = (content: string) => ({ messages: [{ role: 'user' as const, content }] });

describe('a pool of two Ollama hosts', () => {
  it('spreads requests made at once evenly over both hosts by load', async () => {
    const [a, b] = [await host('a', 50), await host('b', 50)];
    pool = createModelPool({
      members: [a, b].map((server) => createOllamaPoolMember({ host: server.url, model })),
    });
    await pool.checkHealth();
    const replies = await Promise.all(Array.from({ length: 20 }, (_, index) => pool?.chat(ask(`q${index}`))));
    expect(replies.map((reply) => reply?.content.split(' answers ')[1])).toEqual(
      Array.from({ length: 20 }, (_, index) => `q${index}`),
    );
    expect([a.requests.length, b.requests.length]).toEqual([10, 10]);
  });

  it('sends requests to the host where the model is loaded while it is free', async () => {
    const [cold, warm] = [await host('cold', 0), await host('warm', 0, [model])];
    pool = createModelPool({
      members: [cold, warm].map((server) => createOllamaPoolMember({ host: server.url, model })),
    });
    await pool.checkHealth();
    for (let index = 0; index < 3; index += 1) await pool.chat(ask(`q${index}`));
    expect([cold.requests.length, warm.requests.length]).toEqual([0, 3]);
  });

  it('still answers every question when one host is killed mid-run', async () => {
    const a = await host('a', 20);
    // b takes requests and never answers them, so they are surely under way when it dies.
    const b = await startFakeOllama({ reply: () => ({ fault: 'hang' }) });
    servers.push(b);
    pool = createModelPool({
      members: [a, b].map((server) => createOllamaPoolMember({ host: server.url, model })),
    });
    await pool.checkHealth();
    const questions = Array.from({ length: 30 }, (_, index) => `q${index}`);
    const answers = questions
      .slice(0, 10)
      .map((question) => pool?.chat(ask(question)).then((reply) => reply.content));
    await until(() => b.requests.length >= 3);
    await b.close();
    for (const question of questions.slice(10)) {
      answers.push(pool.chat(ask(question)).then((reply) => reply.content));
    }
    const texts = await Promise.all(answers);
    expect(texts.map((text) => text?.split(' answers ')[1])).toEqual(questions);
    expect(texts.every((text) => text?.startsWith('a answers'))).toBe(true);
    expect(pool.members().map((member) => member.healthy)).toEqual([true, false]);
  });

  it('serves an agent as its model', async () => {
    const [a, b] = [await host('a', 0), await host('b', 0)];
    pool = createModelPool({
      members: [a, b].map((server) => createOllamaPoolMember({ host: server.url, model })),
    });
    await b.close();
    const agent = createAgent({ model: pool, tools: [] });
    const answer = await agent.answer('hello');
    expect(answer.text).toContain('a answers');
    expect(answer.error).toBeUndefined();
  });
});
