import { describe, expect, it } from 'vitest';
import { parseKeepAlive, parseModelProvider, parseTokenCount } from './model-settings.js';

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

  it('reads token counts as numbers or in k, and warns about anything else', () => {
    expect(parseTokenCount('MODEL_MAX_CONTEXT', '16384')).toEqual({ value: 16384 });
    expect(parseTokenCount('MODEL_MAX_CONTEXT', '8k')).toEqual({ value: 8192 });
    expect(parseTokenCount('MODEL_CONTEXT_LENGTH', 'big').warning).toMatch(
      /^MODEL_CONTEXT_LENGTH="big" is not a token count/,
    );
    expect(parseTokenCount('MODEL_CONTEXT_LENGTH', '100').warning).toBeDefined();
  });
});
