import { describe, expect, it } from 'vitest';
import { isEmbeddingModel, pickModel } from './pick-model.js';

describe('pickModel', () => {
  it('prefers a model with the tools capability', () => {
    expect(
      pickModel([
        { name: 'gemma2:2b', capabilities: ['completion'] },
        { name: 'qwen2.5:7b', capabilities: ['completion', 'tools'] },
      ]),
    ).toBe('qwen2.5:7b');
  });

  it('skips embedding models', () => {
    expect(pickModel(['nomic-embed-text:latest', 'mxbai-embed-large:latest', 'llama3.2:3b'])).toBe(
      'llama3.2:3b',
    );
    expect(
      pickModel([{ name: 'all-minilm:latest', capabilities: ['embedding'] }, { name: 'phi3:mini' }]),
    ).toBe('phi3:mini');
  });

  it('takes the first chat model when none is known to have tools', () => {
    expect(pickModel(['gemma2:2b', 'phi3:mini'])).toBe('gemma2:2b');
  });

  it('returns undefined when nothing can chat', () => {
    expect(pickModel(['nomic-embed-text:latest'])).toBeUndefined();
    expect(pickModel([])).toBeUndefined();
  });

  it('recognises an embedding model by its family', () => {
    expect(isEmbeddingModel({ name: 'custom:latest', family: 'nomic-bert' })).toBe(true);
  });
});
