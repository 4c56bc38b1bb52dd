import { describe, expect, it } from 'vitest';
import {
  OLLAMA_SERVERS,
  OPENAI_SERVERS,
  parseKeepAlive,
  parseModelProvider,
  parseServerList,
  parseTokenCount,
} from './model-settings.js';

const parseBaseUrls = (list: string | undefined, single: string | undefined) =>
  parseServerList(OPENAI_SERVERS, list, single);

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

  it('reads OPENAI_BASE_URLS as a list whose first URL stands for OPENAI_BASE_URL', () => {
    expect(parseBaseUrls('http://a:8080/v1/, http://b:8080/v1,http://a:8080/v1', undefined)).toEqual({
      first: 'http://a:8080/v1',
      all: ['http://a:8080/v1', 'http://b:8080/v1'],
      warnings: [],
    });
    expect(parseBaseUrls(undefined, 'http://one/v1')).toEqual({
      first: 'http://one/v1',
      all: ['http://one/v1'],
      warnings: [],
    });
    expect(parseBaseUrls(' , ', undefined)).toEqual({ first: undefined, all: [], warnings: [] });
  });

  it('leaves out an OPENAI_BASE_URLS entry that is not an http(s) URL, with one sentence', () => {
    const read = parseBaseUrls('ftp://a/v1,http://b/v1', undefined);
    expect(read.all).toEqual(['http://b/v1']);
    expect(read.warnings).toEqual([
      'OPENAI_BASE_URLS entry "ftp://a/v1" is not an http(s) URL such as http://127.0.0.1:8080/v1; it is left out of the pool.',
    ]);
    expect(parseBaseUrls('nonsense', 'http://one/v1')).toMatchObject({
      first: 'http://one/v1',
      all: ['http://one/v1'],
    });
  });

  it('warns when OPENAI_BASE_URL names a server OPENAI_BASE_URLS leaves out', () => {
    expect(parseBaseUrls('http://a/v1,http://b/v1', 'http://b/v1/').warnings).toEqual([]);
    expect(parseBaseUrls('http://a/v1,http://b/v1', 'http://c/v1').warnings).toEqual([
      'OPENAI_BASE_URL (http://c/v1) is not in OPENAI_BASE_URLS; the pool is OPENAI_BASE_URLS alone, so remove one of them.',
    ]);
  });
  it('reads OLLAMA_HOSTS the same way, naming its own settings', () => {
    const read = parseServerList(OLLAMA_SERVERS, 'http://a:11434/,nope', 'http://b:11434');
    expect(read.all).toEqual(['http://a:11434']);
    expect(read.warnings).toEqual([
      'OLLAMA_HOSTS entry "nope" is not an http(s) URL such as http://127.0.0.1:11434; it is left out of the pool.',
      'OLLAMA_HOST (http://b:11434) is not in OLLAMA_HOSTS; the pool is OLLAMA_HOSTS alone, so remove one of them.',
    ]);
  });
});
