import type { Agent, AgentAnswer, AnswerOptions } from '@macstats/core';
import { silentLogger } from '@macstats/core';
import { type FakeOllama, startFakeOllama } from '@macstats/testing';
import { afterEach, describe, expect, it } from 'vitest';
import { FALLBACK_MODEL, MODEL_RETRY_MS } from './model-resolver.js';
import { checkModelServer, type ModelSettings } from './model-server.js';
import { createModelSide } from './model-side.js';

const servers: FakeOllama[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => server.close()));
});

/** An agent that says which model each answer was asked with. */
function modelEcho(): Agent {
  return {
    answer: async (_question: string, options: AnswerOptions = {}): Promise<AgentAnswer> => ({
      text: options.model ?? 'none',
      toolCalls: [],
      llmCalls: 0,
      steps: [],
      usage: { promptTokens: null, completionTokens: null, durationMs: 0 },
    }),
    forget: async () => {},
    remember: async () => {},
    idle: async () => {},
    close: async () => {},
  };
}

describe('createModelSide', () => {
  it('picks the model once Ollama is up when it was down at start-up', async () => {
    // Ollama is down: a fake started and closed, whose port it comes back on later.
    const gone = await startFakeOllama();
    await gone.close();
    const port = Number(new URL(gone.url).port);
    const settings: ModelSettings = { modelProvider: 'ollama', ollamaHost: gone.url };
    let clock = 0;
    const server = await checkModelServer(settings);
    expect(server.reachable).toBe(false);
    const side = await createModelSide(settings, { server, logger: silentLogger, now: () => clock });
    const agent = side.wrapper.wrap(modelEcho());
    expect((await agent.answer('hi')).text).toBe(FALLBACK_MODEL);

    servers.push(await startFakeOllama({ port, models: [{ name: 'gemma3:4b' }] }));
    expect((await agent.answer('hi')).text).toBe(FALLBACK_MODEL);
    clock += MODEL_RETRY_MS;
    expect((await agent.answer('hi')).text).toBe('gemma3:4b');
    expect(side.known()).toBe('gemma3:4b');
    side.close();
  });

  it('ends an answer naming a model that is not installed, with the sentence naming those that are', async () => {
    const ollama = await startFakeOllama({ models: [{ name: 'a:1b' }] });
    servers.push(ollama);
    const settings: ModelSettings = { modelProvider: 'ollama', ollamaHost: ollama.url };
    const side = await createModelSide(settings, {
      server: await checkModelServer(settings),
      logger: silentLogger,
    });
    const answer = await side.wrapper.wrap(modelEcho()).answer('hi', { model: 'gone:7b' });
    expect(answer.error?.code).toBe('MODEL_NOT_INSTALLED');
    expect(answer.text).toBe('The model "gone:7b" is not installed: the installed models are a:1b.');
    expect(await side.listModels()).toEqual(['a:1b']);
    side.close();
  });

  it('spreads answers over the hosts of OLLAMA_HOSTS as one pool, routing around one that is down', async () => {
    const gone = await startFakeOllama();
    await gone.close();
    const up = await startFakeOllama({ models: [{ name: 'a:1b' }], replies: ['from the pool'] });
    servers.push(up);
    const settings: ModelSettings = {
      modelProvider: 'ollama',
      ollamaHosts: [gone.url, up.url],
      ollamaModel: 'a:1b',
    };
    const side = await createModelSide(settings, {
      server: await checkModelServer(settings),
      logger: silentLogger,
    });
    const reply = await side.chat.chat({ messages: [{ role: 'user', content: 'hi' }] });
    expect(reply.content).toBe('from the pool');
    side.close();
  });
});
