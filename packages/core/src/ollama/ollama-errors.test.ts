import { describe, expect, it } from 'vitest';
import { MacstatsError } from '../errors.js';
import { describeOllamaError, toOllamaError } from './ollama-errors.js';

const host = 'http://127.0.0.1:11434';

describe('describeOllamaError', () => {
  it('names ollama serve for a refused connection', () => {
    const error = Object.assign(new TypeError('fetch failed'), {
      cause: Object.assign(new Error('x'), { code: 'ECONNREFUSED' }),
    });
    expect(describeOllamaError(error, { host })).toBe(
      'Ollama is not reachable at http://127.0.0.1:11434: start it with `ollama serve`.',
    );
  });

  it('names ollama serve when undici could not connect in time, as its request reports it', () => {
    const error = Object.assign(new Error('Connect Timeout Error'), { code: 'UND_ERR_CONNECT_TIMEOUT' });
    expect(toOllamaError(error).code).toBe('OLLAMA_UNREACHABLE');
  });

  it('names no setting of an app unless the app gives its names', () => {
    const refused = Object.assign(new TypeError('fetch failed'), {
      cause: Object.assign(new Error('x'), { code: 'ECONNREFUSED' }),
    });
    const missing = Object.assign(new Error('model "llama3" not found, try pulling it first'), {
      status_code: 404,
    });
    const settings = { host: 'OLLAMA_HOST', model: 'OLLAMA_MODEL' };
    expect(describeOllamaError(refused, { host, settings })).toBe(
      'Ollama is not reachable at http://127.0.0.1:11434: start it with `ollama serve`, or set OLLAMA_HOST to where it runs.',
    );
    expect(describeOllamaError(missing, { host, model: 'llama3', settings })).toBe(
      'The model "llama3" is not installed in Ollama: run `ollama pull llama3`, or set OLLAMA_MODEL to a model you have.',
    );
    expect(describeOllamaError(missing, { host, model: 'llama3' })).not.toMatch(/[A-Z]+_[A-Z]+/);
  });

  it('names ollama pull for a missing model', () => {
    const error = Object.assign(new Error('model "llama3" not found, try pulling it first'), {
      status_code: 404,
    });
    expect(describeOllamaError(error, { host, model: 'llama3' })).toContain('run `ollama pull llama3`');
  });

  it('gives the time limit of a timeout in seconds', () => {
    expect(
      describeOllamaError(new MacstatsError('OLLAMA_TIMEOUT', 'x'), { host, timeoutMs: 180_000 }),
    ).toMatch(/^Ollama did not answer within 180 seconds/);
  });

  it('turns an unknown failure into one sentence that still names the fix', () => {
    expect(describeOllamaError(new Error('weird'), { host })).toBe(
      'Something went wrong while talking to Ollama at http://127.0.0.1:11434 (weird): check that `ollama serve` is running.',
    );
  });
});

describe('toOllamaError', () => {
  it('keeps an error that already has an Ollama code', () => {
    const error = new MacstatsError('OLLAMA_TIMEOUT', 'slow');
    expect(toOllamaError(error)).toBe(error);
  });

  it('classifies a stream without its final line as a bad response', () => {
    expect(toOllamaError(new Error('Did not receive done or success response in stream.')).code).toBe(
      'OLLAMA_BAD_RESPONSE',
    );
  });

  it('classifies refused native tools', () => {
    const error = Object.assign(new Error('"gemma2:2b" does not support tools'), { status_code: 400 });
    expect(toOllamaError(error).code).toBe('OLLAMA_TOOLS_UNSUPPORTED');
    expect(toOllamaError(error).unsupported).toBe('tools');
  });
});
