import { describe, expect, it } from 'vitest';
import { memoryOptionsOf, readMemorySettings } from './memory-settings.js';

const read = (values: Record<string, string>) => {
  const warnings: string[] = [];
  return { settings: readMemorySettings((key) => values[key], warnings), warnings };
};

describe('the memory settings', () => {
  it('gives the agent retention and a recall budget from whole numbers', () => {
    const { settings, warnings } = read({
      MEMORY_RETENTION_DAYS: '30',
      MEMORY_RECALL_MESSAGES: '5',
      MEMORY_RECALL_CHARS: '800',
    });
    expect(warnings).toEqual([]);
    expect(memoryOptionsOf(settings)).toEqual({
      retentionMs: 30 * 86_400_000,
      recall: { maxMessages: 5, maxChars: 800 },
    });
  });

  it('warns once for a value that is not a whole number and keeps the default', () => {
    const { settings, warnings } = read({ MEMORY_RECALL_MESSAGES: 'ten' });
    expect(warnings).toEqual([
      'MEMORY_RECALL_MESSAGES "ten" is not a whole number of 0 or more; using the default.',
    ]);
    expect(memoryOptionsOf(settings)).toEqual({});
  });

  it('guesses the embedding API from the URL and warns when only half of it is set', () => {
    expect(
      read({ MEMORY_EMBED_URL: 'http://127.0.0.1:8080/v1', MEMORY_EMBED_MODEL: 'e5' }).settings.embed
        ?.provider,
    ).toBe('openai');
    expect(
      read({ MEMORY_EMBED_URL: 'http://127.0.0.1:11434', MEMORY_EMBED_MODEL: 'nomic' }).settings.embed
        ?.provider,
    ).toBe('ollama');
    expect(read({ MEMORY_EMBED_MODEL: 'nomic' }).warnings).toEqual([
      'MEMORY_EMBED_URL and MEMORY_EMBED_MODEL go together; recall uses words alone until both are set.',
    ]);
  });
});
