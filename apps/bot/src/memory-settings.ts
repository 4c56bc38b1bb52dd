import { createEmbedder, type Embedder } from '@macstats/core';

/** The memory settings: how long archived messages are kept and how much is recalled per answer. */
export interface MemorySettings {
  /** `MEMORY_RETENTION_DAYS`: archived messages older than this many days are deleted. Unset: kept. */
  retentionDays: number | undefined;
  /** `MEMORY_RECALL_MESSAGES`: earlier messages recalled per answer (0 turns recall off). Default 10. */
  recallMessages: number | undefined;
  /** `MEMORY_RECALL_CHARS`: characters of recalled text per answer. Default 2000. */
  recallChars: number | undefined;
  /**
   * `MEMORY_EMBED_URL`, `MEMORY_EMBED_MODEL` (both needed), `MEMORY_EMBED_PROVIDER` (`ollama`, or
   * `openai`: the default when the URL ends in `/v1`), `MEMORY_EMBED_API_KEY`: an embedding model
   * for hybrid recall. Unset: lexical recall alone.
   */
  embed:
    | { provider: 'ollama' | 'openai'; url: string; model: string; apiKey: string | undefined }
    | undefined;
}

/** The settings' names, as `.config.env` and the environment spell them. */
export const MEMORY_SETTING_KEYS = [
  'MEMORY_RETENTION_DAYS',
  'MEMORY_RECALL_MESSAGES',
  'MEMORY_RECALL_CHARS',
  'MEMORY_EMBED_URL',
  'MEMORY_EMBED_MODEL',
  'MEMORY_EMBED_PROVIDER',
  'MEMORY_EMBED_API_KEY',
] as const;

/** The embedding settings, or undefined (with a warning when they are half given). */
function readEmbedSettings(
  get: (key: string) => string | undefined,
  warnings: string[],
): MemorySettings['embed'] {
  const url = get('MEMORY_EMBED_URL');
  const model = get('MEMORY_EMBED_MODEL');
  if (url === undefined && model === undefined) return undefined;
  if (url === undefined || model === undefined) {
    warnings.push(
      'MEMORY_EMBED_URL and MEMORY_EMBED_MODEL go together; recall uses words alone until both are set.',
    );
    return undefined;
  }
  const named = get('MEMORY_EMBED_PROVIDER')?.toLowerCase();
  if (named !== undefined && named !== 'ollama' && named !== 'openai')
    warnings.push(
      `MEMORY_EMBED_PROVIDER "${named}" is neither ollama nor openai; guessing from MEMORY_EMBED_URL.`,
    );
  const provider =
    named === 'ollama' || named === 'openai'
      ? named
      : /\/v1\/?$/.test(url)
        ? ('openai' as const)
        : ('ollama' as const);
  return { provider, url, model, apiKey: get('MEMORY_EMBED_API_KEY') };
}

/** Reads the memory settings; a value that is not a whole number of 0 or more is one warning and the default. */
export function readMemorySettings(
  get: (key: string) => string | undefined,
  warnings: string[],
): MemorySettings {
  const whole = (key: (typeof MEMORY_SETTING_KEYS)[number], least: number) => {
    const text = get(key);
    if (text === undefined) return undefined;
    const value = Number(text);
    if (Number.isInteger(value) && value >= least) return value;
    warnings.push(`${key} "${text}" is not a whole number of ${least} or more; using the default.`);
    return undefined;
  };
  return {
    retentionDays: whole('MEMORY_RETENTION_DAYS', 1),
    recallMessages: whole('MEMORY_RECALL_MESSAGES', 0),
    recallChars: whole('MEMORY_RECALL_CHARS', 0),
    embed: readEmbedSettings(get, warnings),
  };
}

/** The agent's `memory` options these settings give (retention and the recall budget). */
export function memoryOptionsOf(settings: MemorySettings): {
  retentionMs?: number;
  recall?: { maxMessages?: number; maxChars?: number };
  embedder?: Embedder;
} {
  const recall = {
    ...(settings.recallMessages === undefined ? {} : { maxMessages: settings.recallMessages }),
    ...(settings.recallChars === undefined ? {} : { maxChars: settings.recallChars }),
  };
  return {
    ...(settings.retentionDays === undefined ? {} : { retentionMs: settings.retentionDays * 86_400_000 }),
    ...(Object.keys(recall).length > 0 ? { recall } : {}),
    ...(settings.embed ? { embedder: createEmbedder(settings.embed) } : {}),
  };
}
