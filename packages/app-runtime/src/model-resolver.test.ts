import { describe, expect, it } from 'vitest';
import { createModelResolver, FALLBACK_MODEL, MODEL_RETRY_MS } from './model-resolver.js';

describe('createModelResolver', () => {
  it('always uses OLLAMA_MODEL when it is set', async () => {
    const resolver = createModelResolver({ configured: 'qwen2.5:7b', initial: 'x', lookup: async () => 'y' });
    expect(await resolver.current()).toBe('qwen2.5:7b');
  });

  it('uses the model picked at start-up without asking again', async () => {
    let asked = 0;
    const resolver = createModelResolver({
      configured: undefined,
      initial: 'llama3.2:3b',
      lookup: async () => {
        asked += 1;
        return 'other';
      },
    });
    expect(await resolver.current()).toBe('llama3.2:3b');
    expect(asked).toBe(0);
  });

  it('picks a model once Ollama is up when it was down at start-up, asking at most every retry period', async () => {
    let clock = 0;
    let ollama: string | null = null;
    let asked = 0;
    const resolver = createModelResolver({
      configured: undefined,
      initial: null,
      now: () => clock,
      lookup: async () => {
        asked += 1;
        return ollama;
      },
    });
    expect(await resolver.current()).toBe(FALLBACK_MODEL);
    expect(asked).toBe(0);
    clock += MODEL_RETRY_MS;
    expect(await resolver.current()).toBe(FALLBACK_MODEL);
    expect(asked).toBe(1);
    ollama = 'gemma3:4b';
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
