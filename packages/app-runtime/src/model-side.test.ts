import { createServer, request as forward } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Agent, AgentAnswer, AnswerOptions } from '@macstats/core';
import { silentLogger } from '@macstats/core';
import { type FakeOllama, startFakeOllama } from '@macstats/testing';
import { afterEach, describe, expect, it } from 'vitest';
import { FALLBACK_MODEL, MODEL_RETRY_MS } from './model-resolver.js';
import { checkModelServer, type ModelSettings } from './model-server.js';
import { createModelSide } from './model-side.js';

const servers: Array<{ close(): Promise<void> }> = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => server.close()));
});

/** A server on a port of its own that passes each request to a fake, or drops it (a server down). */
interface Front {
  url: string;
  /** Where requests go from now on; undefined drops them, as a server that is down. */
  pointAt(fake: FakeOllama | undefined): void;
  close(): Promise<void>;
}

/** A {@link Front}, down until pointed at a fake; closed after the test. */
async function startFront(): Promise<Front> {
  let target: URL | undefined;
  const server = createServer((request, response) => {
    if (!target) {
      request.socket.destroy();
      return;
    }
    const passed = forward(
      new URL(request.url ?? '/', target),
      { method: request.method, headers: request.headers },
      (answer) => {
        response.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(response);
      },
    );
    passed.on('error', () => response.destroy());
    request.pipe(passed);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const front: Front = {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    pointAt: (fake) => {
      target = fake ? new URL(fake.url) : undefined;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
  servers.push(front);
  return front;
}

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
    // Ollama is down: the front drops every request until it is pointed at a fake.
    const ollama = await startFront();
    const settings: ModelSettings = { modelProvider: 'ollama', ollamaHost: ollama.url };
    let clock = 0;
    const server = await checkModelServer(settings);
    expect(server.reachable).toBe(false);
    const side = await createModelSide(settings, { server, logger: silentLogger, now: () => clock });
    try {
      const agent = side.wrapper.wrap(modelEcho());
      expect((await agent.answer('hi')).text).toBe(FALLBACK_MODEL);

      const fake = await startFakeOllama({ models: [{ name: 'gemma3:4b' }] });
      servers.push(fake);
      ollama.pointAt(fake);
      expect((await agent.answer('hi')).text).toBe(FALLBACK_MODEL);
      clock += MODEL_RETRY_MS;
      expect((await agent.answer('hi')).text).toBe('gemma3:4b');
      expect(side.known()).toBe('gemma3:4b');
    } finally {
      side.close();
    }
  });

  it('ends an answer naming a model that is not installed, with the sentence naming those that are', async () => {
    const ollama = await startFakeOllama({ models: [{ name: 'a:1b' }] });
    servers.push(ollama);
    const settings: ModelSettings = { modelProvider: 'ollama', ollamaHost: ollama.url };
    const side = await createModelSide(settings, {
      server: await checkModelServer(settings),
      logger: silentLogger,
    });
    try {
      const answer = await side.wrapper.wrap(modelEcho()).answer('hi', { model: 'gone:7b' });
      expect(answer.error?.code).toBe('MODEL_NOT_INSTALLED');
      expect(answer.text).toBe('The model "gone:7b" is not installed: the installed models are a:1b.');
      expect(await side.listModels()).toEqual(['a:1b']);
    } finally {
      side.close();
    }
  });

  it('spreads answers over the hosts of OLLAMA_HOSTS as one pool, routing around one that is down', async () => {
    const gone = await startFront(); // never pointed at a fake: a host that is down
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
    try {
      const reply = await side.chat.chat({ messages: [{ role: 'user', content: 'hi' }] });
      expect(reply.content).toBe('from the pool');
    } finally {
      side.close();
    }
  });
});
