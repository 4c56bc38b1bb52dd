import { type FakeOllama, startFakeOllama } from '@macstats/testing';
import { afterEach, describe, expect, it } from 'vitest';
import { checkOllama } from '../src/index.js';

let fake: FakeOllama;
afterEach(async () => {
  await fake?.close();
});

describe('checkOllama', () => {
  it('reports version, models, the chosen model and its tools capability', async () => {
    fake = await startFakeOllama({ version: '0.12.3' });
    const check = await checkOllama({ host: fake.url, model: 'qwen2.5:7b' });
    expect(check).toEqual({
      ok: true,
      host: fake.url,
      reachable: true,
      version: '0.12.3',
      models: ['llama3.2:3b', 'qwen2.5:7b', 'gemma2:2b'],
      model: 'qwen2.5:7b',
      tools: true,
      problem: null,
    });
  });

  it('picks the first suitable model when none is asked for', async () => {
    fake = await startFakeOllama({
      models: [
        { name: 'nomic-embed-text:latest', capabilities: ['embedding'], family: 'nomic-bert' },
        { name: 'gemma2:2b', capabilities: ['completion'] },
        { name: 'qwen2.5:7b', capabilities: ['completion', 'tools'] },
      ],
    });
    const check = await checkOllama({ host: fake.url });
    expect(check).toMatchObject({ ok: true, model: 'qwen2.5:7b', tools: true });
  });

  it('says which command pulls a missing model', async () => {
    fake = await startFakeOllama();
    const check = await checkOllama({
      host: fake.url,
      model: 'mistral:7b',
      settingNames: { model: 'OLLAMA_MODEL' },
    });
    expect(check.ok).toBe(false);
    expect(check.problem).toBe(
      'The model "mistral:7b" is not installed in Ollama: run `ollama pull mistral:7b`, or set OLLAMA_MODEL to a model you have (installed: llama3.2:3b, qwen2.5:7b, gemma2:2b).',
    );
  });

  it('accepts a model name without its tag', async () => {
    fake = await startFakeOllama({ models: [{ name: 'llama3.2:latest' }] });
    expect(await checkOllama({ host: fake.url, model: 'llama3.2' })).toMatchObject({
      ok: true,
      model: 'llama3.2:latest',
    });
  });

  it('says to pull a model when Ollama has none', async () => {
    fake = await startFakeOllama({ models: [] });
    const check = await checkOllama({ host: fake.url });
    expect(check).toMatchObject({ ok: false, reachable: true, model: null });
    expect(check.problem).toContain('ollama pull');
  });

  it('says to start Ollama when nothing listens', async () => {
    fake = await startFakeOllama();
    const url = fake.url;
    await fake.close();
    const check = await checkOllama({ host: url });
    expect(check).toMatchObject({ ok: false, reachable: false });
    expect(check.problem).toContain('`ollama serve`');
  });
});
