import type { OllamaCheck } from '@macstats/core';
import { describe, expect, it } from 'vitest';
import { createModelResolver, FALLBACK_MODEL, MODEL_RETRY_MS } from './model-resolver.js';

const down: OllamaCheck = {
  ok: false,
  host: 'http://127.0.0.1:1',
  reachable: false,
  version: null,
  models: [],
  model: null,
  tools: null,
  problem: 'Ollama is not running',
};
const up = (model: string): OllamaCheck => ({ ...down, ok: true, reachable: true, model, problem: null });

describe('createModelResolver', () => {
  it('always uses OLLAMA_MODEL when it is set', async () => {
    const resolver = createModelResolver({ ollamaHost: '', configured: 'qwen2.5:7b', initial: up('x') });
    expect(await resolver.current()).toBe('qwen2.5:7b');
  });

  it('uses the model picked at start-up without asking again', async () => {
    let asked = 0;
    const resolver = createModelResolver({
      ollamaHost: '',
      configured: undefined,
      initial: up('llama3.2:3b'),
      check: async () => {
        asked += 1;
        return up('other');
      },
    });
    expect(await resolver.current()).toBe('llama3.2:3b');
    expect(asked).toBe(0);
  });

  it('picks a model once Ollama is up when it was down at start-up, asking at most every retry period', async () => {
    let clock = 0;
    let ollama = down;
    let asked = 0;
    const resolver = createModelResolver({
      ollamaHost: '',
      configured: undefined,
      initial: down,
      now: () => clock,
      check: async () => {
        asked += 1;
        return ollama;
      },
    });
    expect(await resolver.current()).toBe(FALLBACK_MODEL);
    expect(asked).toBe(0);
    clock += MODEL_RETRY_MS;
    expect(await resolver.current()).toBe(FALLBACK_MODEL);
    expect(asked).toBe(1);
    ollama = up('gemma3:4b');
    clock += 1;
    expect(await resolver.current()).toBe(FALLBACK_MODEL);
    expect(asked).toBe(1);
    clock += MODEL_RETRY_MS;
    expect(await resolver.current()).toBe('gemma3:4b');
    clock += MODEL_RETRY_MS;
    expect(await resolver.current()).toBe('gemma3:4b');
    expect(asked).toBe(2);
  });
});
