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

/** Which settings {@link parseServerList} reads: the list, the single address it replaces, an example. */
export interface ServerListSetting {
  list: string;
  single: string;
  example: string;
}

export const OPENAI_SERVERS: ServerListSetting = {
  list: 'OPENAI_BASE_URLS',
  single: 'OPENAI_BASE_URL',
  example: 'http://127.0.0.1:8080/v1',
};

export const OLLAMA_SERVERS: ServerListSetting = {
  list: 'OLLAMA_HOSTS',
  single: 'OLLAMA_HOST',
  example: 'http://127.0.0.1:11434',
};

/**
 * Reads a comma-separated list of servers answering as one pool (`OPENAI_BASE_URLS`,
 * `OLLAMA_HOSTS`). An entry that is not an http(s) URL is left out with one warning; repeats
 * count once. When the list is set, its first URL takes the place of the single setting
 * (`OPENAI_BASE_URL`, `OLLAMA_HOST`), so that setting naming another address is one warning.
 * Unset or empty: the list is the single address alone.
 */
export function parseServerList(
  setting: ServerListSetting,
  list: string | undefined,
  single: string | undefined,
): { first: string | undefined; all: string[]; warnings: string[] } {
  const warnings: string[] = [];
  const all: string[] = [];
  for (const entry of (list ?? '').split(',').map((part) => part.trim())) {
    if (entry === '') continue;
    if (!isHttpUrl(entry)) {
      warnings.push(
        `${setting.list} entry "${entry}" is not an http(s) URL such as ${setting.example}; it is left out of the pool.`,
      );
      continue;
    }
    const url = entry.replace(/\/+$/, '');
    if (!all.includes(url)) all.push(url);
  }
  if (all.length === 0) return { first: single, all: single ? [single] : [], warnings };
  if (single && !all.includes(single.replace(/\/+$/, '')))
    warnings.push(
      `${setting.single} (${single}) is not in ${setting.list}; the pool is ${setting.list} alone, so remove one of them.`,
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
