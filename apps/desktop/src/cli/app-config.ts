import { join, resolve } from 'node:path';
import {
  CONFIG_FILE_NAME,
  loadConfig,
  parseSchedulerLease,
  readDailyTokenLimits,
} from '@macstats/app-config';
import { DEFAULT_OLLAMA_HOST } from '@macstats/core';

/** The app's settings, read by `@macstats/app-config`'s `loadConfig` in the order API.md binds. */
export interface AppConfig {
  /** `MACSTATS_HOME`, absolute; default `~/.mac-stats`. */
  home: string;
  ollamaHost: string;
  ollamaModel: string | undefined;
  /** `OLLAMA_KEEP_ALIVE`: seconds (`-1` for ever) or a duration (`30m`) Ollama keeps the model loaded. */
  ollamaKeepAlive: string | number | undefined;
  /** `MODEL_CONTEXT_LENGTH` and `MODEL_MAX_CONTEXT`: the model's context length, and the cap on the window reserved. */
  context: { contextLength?: number; maxContextLength?: number };
  /** `MODEL_PROVIDER=openai` with `OPENAI_BASE_URL`, `OPENAI_API_KEY`, `OPENAI_MODEL`: an OpenAI-compatible server. */
  openai: { baseUrl: string; apiKey: string | undefined; model: string | undefined } | undefined;
  /**
   * `DATABASE_URL`: PostgreSQL shared with the bot hosts (the schedules, their state, history and
   * leadership, and conversation memory). Unset: files under MACSTATS_HOME, this machine only.
   */
  databaseUrl: string | undefined;
  /**
   * `SCHEDULER_LEASE_MS`: with `DATABASE_URL`, how long the scheduler's lease lasts without
   * renewal, 1000 to 600000 ms, as the bot reads it. Unset or bad (one warning): the store's default.
   */
  schedulerLeaseMs: number | undefined;
  /** `DAILY_TOKENS_PER_AGENT`, `DAILY_TOKENS_PER_CHANNEL`, as the bot reads them; undefined is no limit. */
  dailyTokens: { perAgent: number | undefined; perChannel: number | undefined };
  /** Every value by name, for the tools (BRAVE_API_KEY, MCP_SERVER_URL, ALLOW_LOCAL_CMD, …). */
  values: Record<string, string | undefined>;
  /** Names whose value comes from the environment or `./.config.env`: they win over `$MACSTATS_HOME/.config.env`. */
  fixedAboveHomeFile: string[];
  /** Any setting by name (environment first, then the files): the `OTEL_*` and `METRICS_*` ones. */
  setting(key: string): string | undefined;
  /** Lines of the config files that could not be read. */
  warnings: string[];
}

/**
 * Reads the settings as both apps do: the environment first, then `.config.env` in `cwd`, then
 * `$MACSTATS_HOME/.config.env`. Empty values count as unset.
 */
export function readAppConfig(
  env: Record<string, string | undefined>,
  cwd: string,
  home?: string,
): AppConfig {
  const config = loadConfig({ env, cwd, home });
  const warnings = [...config.warnings];
  const homeFile = join(config.macstatsHome, CONFIG_FILE_NAME);
  const localFile = resolve(cwd, CONFIG_FILE_NAME);
  const dailyTokens = readDailyTokenLimits((key) => config.get(key)?.trim() || undefined);
  warnings.push(...dailyTokens.warnings);
  return {
    home: config.macstatsHome,
    ollamaHost: normaliseHost(config.get('OLLAMA_HOST') ?? DEFAULT_OLLAMA_HOST),
    ollamaModel: config.get('OLLAMA_MODEL'),
    ollamaKeepAlive: keepAlive(config.get('OLLAMA_KEEP_ALIVE'), warnings),
    openai: openAiSettings(config.get, warnings),
    context: contextSettings(config.get, warnings),
    databaseUrl: config.get('DATABASE_URL')?.trim() || undefined,
    schedulerLeaseMs: schedulerLease(config.get('SCHEDULER_LEASE_MS'), warnings),
    dailyTokens: { perAgent: dailyTokens.perAgent, perChannel: dailyTokens.perChannel },
    values: config.values,
    setting: (key) => config.get(key)?.trim() || undefined,
    fixedAboveHomeFile: Object.keys(config.sources).filter((name) => {
      const source = config.sources[name];
      return source === 'env' || (source === localFile && localFile !== homeFile);
    }),
    warnings,
  };
}

/** Ollama accepts `OLLAMA_HOST=127.0.0.1:11434`; the client wants a URL. */
export function normaliseHost(host: string): string {
  const withScheme = /^https?:\/\//i.test(host) ? host : `http://${host}`;
  return withScheme.replace(/\/+$/, '');
}

/** The OpenAI-compatible server when MODEL_PROVIDER=openai; a bad setting is one warning and Ollama. */
function openAiSettings(get: (key: string) => string | undefined, warnings: string[]): AppConfig['openai'] {
  const provider = get('MODEL_PROVIDER')?.trim().toLowerCase();
  if (provider === undefined || provider === '' || provider === 'ollama') return undefined;
  if (provider !== 'openai') {
    warnings.push(
      `MODEL_PROVIDER="${get('MODEL_PROVIDER')}" is not a provider: use ollama or openai; using ollama.`,
    );
    return undefined;
  }
  const baseUrl = get('OPENAI_BASE_URL')?.trim();
  if (!baseUrl) {
    warnings.push(
      'MODEL_PROVIDER=openai needs OPENAI_BASE_URL, such as http://127.0.0.1:8080/v1; using ollama.',
    );
    return undefined;
  }
  return { baseUrl: baseUrl.replace(/\/+$/, ''), apiKey: get('OPENAI_API_KEY'), model: get('OPENAI_MODEL') };
}

/** `OLLAMA_KEEP_ALIVE` as Ollama takes it; anything else is one warning and Ollama's default. */
function keepAlive(text: string | undefined, warnings: string[]): string | number | undefined {
  const value = text?.trim();
  if (value === undefined || value === '') return undefined;
  if (/^-?\d+$/.test(value)) return Number(value);
  if (/^\d+(\.\d+)?(ms|s|m|h)$/.test(value)) return value;
  warnings.push(
    `OLLAMA_KEEP_ALIVE="${value}" is not a duration: use seconds (300, -1 for ever) or 30m, 1h; Ollama's default is used.`,
  );
  return undefined;
}

/** `MODEL_CONTEXT_LENGTH` and `MODEL_MAX_CONTEXT`: whole numbers from 512 up (or `8k`); anything else is one warning. */
function contextSettings(get: (key: string) => string | undefined, warnings: string[]): AppConfig['context'] {
  const read = (name: string) => {
    const text = get(name)?.trim().replace(/_/g, '');
    if (text === undefined || text === '') return undefined;
    const value = /^\d+k$/i.test(text) ? Number(text.slice(0, -1)) * 1024 : Number(text);
    if (Number.isInteger(value) && value >= 512) return value;
    warnings.push(
      `${name}="${get(name)}" is not a token count: use a whole number from 512 up (8192, or 8k); the default is used.`,
    );
    return undefined;
  };
  const contextLength = read('MODEL_CONTEXT_LENGTH');
  const maxContextLength = read('MODEL_MAX_CONTEXT');
  return {
    ...(contextLength === undefined ? {} : { contextLength }),
    ...(maxContextLength === undefined ? {} : { maxContextLength }),
  };
}

/** `SCHEDULER_LEASE_MS`, read as the bot reads it; a bad value is one warning and the default. */
function schedulerLease(text: string | undefined, warnings: string[]): number | undefined {
  const lease = parseSchedulerLease(text);
  if (lease.warning) warnings.push(lease.warning);
  return lease.value;
}
