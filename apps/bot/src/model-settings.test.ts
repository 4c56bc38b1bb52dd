import { describe, expect, it } from 'vitest';
import { parseKeepAlive, parseModelProvider } from './model-settings.js';

describe('model settings', () => {
  it('reads MODEL_PROVIDER, and a wrong one is one warning and Ollama', () => {
    expect(parseModelProvider(undefined)).toEqual({ value: 'ollama' });
    expect(parseModelProvider(' OpenAI ')).toEqual({ value: 'openai' });
    expect(parseModelProvider('llamacpp')).toEqual({
      value: 'ollama',
      warning: 'MODEL_PROVIDER="llamacpp" is not a provider: use ollama or openai; using ollama.',
    });
  });

  it('reads OLLAMA_KEEP_ALIVE as seconds or a duration, and warns about anything else', () => {
    expect(parseKeepAlive('-1')).toEqual({ value: -1 });
    expect(parseKeepAlive('30m')).toEqual({ value: '30m' });
    expect(parseKeepAlive(undefined)).toEqual({});
    expect(parseKeepAlive('forever').warning).toMatch(/^OLLAMA_KEEP_ALIVE="forever" is not a duration/);
  });
});
