/** The model settings the apps read besides core's keys; see docs/models.md. */
export const MODEL_CONFIG_KEYS = [
  'MODEL_PROVIDER',
  'OPENAI_BASE_URL',
  'OPENAI_BASE_URLS',
  'OPENAI_API_KEY',
  'OPENAI_MODEL',
] as const;

/** Which kind of server answers: Ollama, or an OpenAI-compatible one. */
export type ModelProvider = 'ollama' | 'openai';

/** Reads `MODEL_PROVIDER`; anything but `ollama` or `openai` is one warning and Ollama. */
export function parseModelProvider(text: string | undefined): { value: ModelProvider; warning?: string } {
  const value = text?.trim().toLowerCase();
  if (value === undefined || value === '' || value === 'ollama') return { value: 'ollama' };
  if (value === 'openai') return { value: 'openai' };
  return {
    value: 'ollama',
    warning: `MODEL_PROVIDER="${text}" is not a provider: use ollama or openai; using ollama.`,
  };
}

/**
 * Reads `OLLAMA_KEEP_ALIVE` as Ollama takes `keep_alive`: a duration (`30m`, `1h`, `90s`) or a
 * number of seconds (`-1` keeps the model loaded for ever, `0` unloads it after each answer).
 */
export function parseKeepAlive(text: string | undefined): { value?: string | number; warning?: string } {
  const value = text?.trim();
  if (value === undefined || value === '') return {};
  if (/^-?\d+$/.test(value)) return { value: Number(value) };
  if (/^\d+(\.\d+)?(ms|s|m|h)$/.test(value)) return { value };
  return {
    warning: `OLLAMA_KEEP_ALIVE="${value}" is not a duration: use seconds (300, -1 for ever) or 30m, 1h; Ollama's default is used.`,
  };
}

/** Reads a token count setting (`MODEL_CONTEXT_LENGTH`, `MODEL_MAX_CONTEXT`): a whole number from 512 up. */
export function parseTokenCount(
  name: string,
  text: string | undefined,
): { value?: number; warning?: string } {
  const value = text?.trim().replace(/_/g, '');
  if (value === undefined || value === '') return {};
  const parsed = /^\d+k$/i.test(value) ? Number(value.slice(0, -1)) * 1024 : Number(value);
  if (Number.isInteger(parsed) && parsed >= 512) return { value: parsed };
  return {
    warning: `${name}="${text}" is not a token count: use a whole number from 512 up (8192, or 8k); the default is used.`,
  };
}

/**
 * Reads `OPENAI_BASE_URLS`, comma-separated OpenAI-compatible API addresses answering as one pool.
 * An entry that is not an http(s) URL is left out with one warning; repeats count once. When the
 * list is set, its first URL takes the place of `OPENAI_BASE_URL` (checked at start, asked which
 * model to use), so `OPENAI_BASE_URL` set to another address is one warning. Unset or empty: the
 * list is `OPENAI_BASE_URL` alone.
 */
export function parseBaseUrls(
  list: string | undefined,
  single: string | undefined,
): { first: string | undefined; all: string[]; warnings: string[] } {
  const warnings: string[] = [];
  const all: string[] = [];
  for (const entry of (list ?? '').split(',').map((part) => part.trim())) {
    if (entry === '') continue;
    if (!isHttpUrl(entry)) {
      warnings.push(
        `OPENAI_BASE_URLS entry "${entry}" is not an http(s) URL such as http://127.0.0.1:8080/v1; it is left out of the pool.`,
      );
      continue;
    }
    const url = entry.replace(/\/+$/, '');
    if (!all.includes(url)) all.push(url);
  }
  if (all.length === 0) return { first: single, all: single ? [single] : [], warnings };
  if (single && !all.includes(single.replace(/\/+$/, '')))
    warnings.push(
      `OPENAI_BASE_URL (${single}) is not in OPENAI_BASE_URLS; the pool is OPENAI_BASE_URLS alone, so remove one of them.`,
    );
  return { first: all[0], all, warnings };
}

function isHttpUrl(text: string): boolean {
  try {
    const url = new URL(text);
    return url.protocol === 'http:' || url.protocol === 'https:';
  } catch {
    return false;
  }
}
