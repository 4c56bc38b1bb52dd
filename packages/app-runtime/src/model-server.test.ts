import { type FakeOllama, type FakeOpenAi, startFakeOllama, startFakeOpenAi } from '@macstats/testing';
import { afterEach, describe, expect, it } from 'vitest';
import {
  checkModelServer,
  checkModelServerAt,
  createChatModel,
  type ModelSettings,
  modelSettingsAt,
  OPENAI_BASE_URL_MISSING,
} from './model-server.js';

const servers: Array<FakeOllama | FakeOpenAi> = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => server.close()));
});

async function ollama(models: string[]): Promise<FakeOllama> {
  const server = await startFakeOllama({
    models: models.map((name) => ({ name })),
    replies: ['from ollama'],
  });
  servers.push(server);
  return server;
}

/** A loopback address nothing listens on: a fake started and closed again. */
async function deadAddress(): Promise<string> {
  const server = await startFakeOllama();
  await server.close();
  return server.url;
}

describe('checkModelServer', () => {
  it('answers for a pool with the first host that serves the model, listing the models of every host that answered', async () => {
    const [dead, first, second] = [await deadAddress(), await ollama(['a:1b']), await ollama(['b:1b'])];
    const settings: ModelSettings = {
      modelProvider: 'ollama',
      ollamaHost: dead,
      ollamaHosts: [dead, first.url, second.url],
      ollamaModel: 'b:1b',
    };
    const found = await checkModelServer(settings);
    expect(found).toMatchObject({ ok: true, url: second.url, model: 'b:1b', problem: null });
    expect(found.models.sort()).toEqual(['a:1b', 'b:1b']);
  });

  it('names the pool setting when a host of the pool is down, and the one address otherwise', async () => {
    const dead = await deadAddress();
    const pool = { modelProvider: 'ollama', ollamaHosts: [dead, dead] } as const;
    expect((await checkModelServerAt(pool, dead)).problem).toContain('OLLAMA_HOSTS');
    expect((await checkModelServerAt(pool, dead, { pool: false })).problem).toContain('OLLAMA_HOST ');
  });

  it('says in one sentence that MODEL_PROVIDER=openai needs OPENAI_BASE_URL', async () => {
    const found = await checkModelServer({ modelProvider: 'openai' });
    expect(found).toMatchObject({
      ok: false,
      reachable: false,
      provider: 'openai',
      problem: OPENAI_BASE_URL_MISSING,
    });
  });

  it('asks only the host and model Settings chose', async () => {
    const [first, second] = [await ollama(['a:1b']), await ollama(['b:1b'])];
    const settings: ModelSettings = { modelProvider: 'ollama', ollamaHosts: [first.url, second.url] };
    const found = await checkModelServer(modelSettingsAt(settings, second.url, 'b:1b'));
    expect(found).toMatchObject({ ok: true, url: second.url, model: 'b:1b', models: ['b:1b'] });
    expect(first.log).toEqual([]);
  });
});

describe('createChatModel', () => {
  it('answers through the OpenAI-compatible server when MODEL_PROVIDER=openai', async () => {
    const server = await startFakeOpenAi({ replies: ['from the openai server'] });
    servers.push(server);
    const model = createChatModel({ modelProvider: 'openai', openaiBaseUrl: server.url }, 'local-model');
    const reply = await model.chat({ messages: [{ role: 'user', content: 'hi' }] });
    expect(reply.content).toBe('from the openai server');
    expect(server.requests.map((request) => request.model)).toEqual(['local-model']);
  });

  it('answers through Ollama otherwise, with the model asked for', async () => {
    const server = await ollama(['a:1b']);
    const reply = await createChatModel({ modelProvider: 'ollama', ollamaHost: server.url }, 'a:1b').chat({
      messages: [{ role: 'user', content: 'hi' }],
    });
    expect(reply.content).toBe('from ollama');
    expect(server.requests.map((request) => request.model)).toEqual(['a:1b']);
  });
});
