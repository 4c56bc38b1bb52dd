import { join } from 'node:path';
import {
  CONFIG_KEYS,
  loadConfig,
  parseSchedulerLease,
  readDailyTokenLimits,
  readVoiceSettings,
  type VoiceSettings,
} from '@macstats/app-config';
import { DEFAULT_OLLAMA_HOST } from '@macstats/core';
import { OBSERVABILITY_SETTING_KEYS } from '@macstats/observability';
import { parseDiagnosticsSetting } from './diagnostics.js';
import { MEMORY_SETTING_KEYS, type MemorySettings, readMemorySettings } from './memory-settings.js';
import {
  MODEL_CONFIG_KEYS,
  type ModelProvider,
  OLLAMA_SERVERS,
  OPENAI_SERVERS,
  parseKeepAlive,
  parseModelProvider,
  parseServerList,
  parseTokenCount,
} from './model-settings.js';

/** Everything the bot reads from the environment and `.config.env` files. */
export interface AppConfig {
  /** `MACSTATS_HOME`: schedules.json, discord_channels.json, mcp.json, sessions, logs. */
  home: string;
  ollamaHost: string;
  /**
   * `OLLAMA_HOSTS` (comma-separated URLs): several Ollama servers answering as one pool. Unset:
   * `[ollamaHost]`. All are checked at start; the first that has the model is asked for the list.
   */
  ollamaHosts: string[];
  /** `OLLAMA_MODEL`; when unset the first suitable model Ollama lists is picked. */
  ollamaModel: string | undefined;
  discordToken: string | undefined;
  discordApiUrl: string | undefined;
  braveApiKey: string | undefined;
  braveApiUrl: string | undefined;
  mcpStdio: string | undefined;
  mcpUrl: string | undefined;
  /**
   * `SKILLS_GIT_BASE`: where `macstats skills add owner/repo` clones from
   * (`<base>/<owner>/<repo>.git`); unset, only folders and git URLs are installed.
   */
  skillsGitBase: string | undefined;
  /** `SEARXNG_URL`: a SearXNG instance; when set, WEB_SEARCH searches on it instead of BRAVE_SEARCH. */
  searxngUrl: string | undefined;
  /** `MCP_SERVE_TOOLS`: the tools `macstats mcp` serves, by name; empty means every available one. */
  mcpServeTools: string[];
  /** `MACSTATS_MCP_TOKEN`: the bearer token of `macstats mcp --http`; default a new one per launch. */
  mcpToken: string | undefined;
  /**
   * `DATABASE_URL`: PostgreSQL shared by several bot hosts (schedules, their state and history,
   * the scheduler's leadership). Unset: files under MACSTATS_HOME, one host.
   */
  databaseUrl: string | undefined;
  /**
   * `SCHEDULER_LEASE_MS`: with `DATABASE_URL`, how long the scheduler's lease lasts without
   * renewal (1000 to 600000); a dead leader is replaced within about this long. Unset: the store's default.
   */
  schedulerLeaseMs: number | undefined;
  /**
   * `DAILY_TOKENS_PER_AGENT`, `DAILY_TOKENS_PER_CHANNEL`: tokens each agent and each Discord channel
   * may spend per UTC day; undefined is no limit (the default).
   */
  dailyTokens: { perAgent: number | undefined; perChannel: number | undefined };
  /** `DISCORD_SHARDS` (`0,1` or `0-3`): the gateway shards this process holds. Unset: all of them. */
  discordShards: number[] | undefined;
  /** `DISCORD_SHARD_COUNT`: how many shards all processes hold together. Required with `DISCORD_SHARDS`. */
  discordShardCount: number | undefined;
  /** `TRANSCRIBE_*`, `SPEAK_*`: the speech servers (docs/voice.md). */
  voice: VoiceSettings;
  /** `MODEL_PROVIDER`: `ollama` (default) or `openai` (an OpenAI-compatible server). */
  modelProvider: ModelProvider;
  /**
   * `OPENAI_BASE_URL`: the OpenAI-compatible API, e.g. `http://127.0.0.1:8080/v1`. With
   * `OPENAI_BASE_URLS` set, the first of those.
   */
  openaiBaseUrl: string | undefined;
  /**
   * `OPENAI_BASE_URLS` (comma-separated URLs): several OpenAI-compatible servers answering as one
   * pool. Unset: `[openaiBaseUrl]`, or none.
   */
  openaiBaseUrls: string[];
  /** `OPENAI_API_KEY`, when the server wants one. */
  openaiApiKey: string | undefined;
  /** `OPENAI_MODEL`; when unset the first model the server lists. */
  openaiModel: string | undefined;
  /** `OLLAMA_KEEP_ALIVE`: how long Ollama keeps the model loaded after an answer. */
  ollamaKeepAlive: string | number | undefined;
  /** `MODEL_CONTEXT_LENGTH`: the model's context length when the server's report is wrong or missing. */
  modelContextLength: number | undefined;
  /** `MODEL_MAX_CONTEXT`: never reserve a larger context window (default 32768). */
  modelMaxContext: number | undefined;
  /** `MEMORY_RETENTION_DAYS`, `MEMORY_RECALL_MESSAGES`, `MEMORY_RECALL_CHARS`. */
  memory: MemorySettings;
  /** `LOG_LEVEL`, default `info`. */
  logLevel: string;
  /** `MACSTATS_DIAGNOSTICS`: seconds between `diagnostics` log lines of `start`; off when unset. */
  diagnosticsSeconds: number | undefined;
  /**
   * Reads any setting (environment first, then the config files): the `OTEL_*` settings and
   * `METRICS_PORT` / `METRICS_HOST`, which `@macstats/observability` reads through it.
   */
  setting(key: string): string | undefined;
  /** Problems reading the `.config.env` files, one sentence each. */
  warnings: string[];
  /** One line per setting and where it came from, secrets masked. */
  describe(): string;
}

/**
 * The settings the bot lists in `describe()` (any other is read too, when a command asks for it).
 * docs/bot.md's table names each one (the `OTEL_*` and `METRICS_*` ones, docs/observability.md):
 * a test compares them.
 */
export const APP_SETTING_KEYS = [
  ...CONFIG_KEYS,
  ...MODEL_CONFIG_KEYS,
  'LOG_LEVEL',
  'MCP_SERVE_TOOLS',
  'MACSTATS_MCP_TOKEN',
  'DATABASE_URL',
  'SCHEDULER_LEASE_MS',
  'DISCORD_SHARDS',
  'DISCORD_SHARD_COUNT',
  'OLLAMA_HOSTS',
  'MACSTATS_DIAGNOSTICS',
  'SKILLS_GIT_BASE',
  ...MEMORY_SETTING_KEYS,
  ...OBSERVABILITY_SETTING_KEYS,
] as const;

/** Reads the environment first, then `./.config.env`, then `$MACSTATS_HOME/.config.env`. */
export function readAppConfig(env: NodeJS.ProcessEnv = process.env, cwd = process.cwd()): AppConfig {
  const loaded = loadConfig({ env, cwd, keys: APP_SETTING_KEYS });
  const get = (key: string) => {
    const value = loaded.get(key)?.trim();
    return value ? value : undefined;
  };
  const warnings = [...loaded.warnings];
  const provider = parseModelProvider(get('MODEL_PROVIDER'));
  if (provider.warning) warnings.push(provider.warning);
  const keepAlive = parseKeepAlive(get('OLLAMA_KEEP_ALIVE'));
  if (keepAlive.warning) warnings.push(keepAlive.warning);
  const contextLength = parseTokenCount('MODEL_CONTEXT_LENGTH', get('MODEL_CONTEXT_LENGTH'));
  const maxContext = parseTokenCount('MODEL_MAX_CONTEXT', get('MODEL_MAX_CONTEXT'));
  const lease = parseSchedulerLease(get('SCHEDULER_LEASE_MS'));
  const dailyTokens = readDailyTokenLimits(get);
  warnings.push(...dailyTokens.warnings);
  for (const warning of [contextLength.warning, maxContext.warning, lease.warning])
    if (warning) warnings.push(warning);
  const shards = readShards(get('DISCORD_SHARDS'), get('DISCORD_SHARD_COUNT'), warnings);
  const ollamaHosts = parseServerList(OLLAMA_SERVERS, get('OLLAMA_HOSTS'), get('OLLAMA_HOST'));
  warnings.push(...ollamaHosts.warnings);
  const ollamaHost = ollamaHosts.first ?? DEFAULT_OLLAMA_HOST;
  const openaiBaseUrls = parseServerList(OPENAI_SERVERS, get('OPENAI_BASE_URLS'), get('OPENAI_BASE_URL'));
  warnings.push(...openaiBaseUrls.warnings);
  const voice = readVoiceSettings(get);
  warnings.push(...voice.warnings);
  return {
    voice,
    modelProvider: provider.value,
    openaiBaseUrl: openaiBaseUrls.first,
    openaiBaseUrls: openaiBaseUrls.all,
    openaiApiKey: get('OPENAI_API_KEY'),
    openaiModel: get('OPENAI_MODEL'),
    ollamaKeepAlive: keepAlive.value,
    modelContextLength: contextLength.value,
    modelMaxContext: maxContext.value,
    home: loaded.macstatsHome,
    ollamaHost,
    ollamaHosts: ollamaHosts.all.length > 0 ? ollamaHosts.all : [ollamaHost],
    ollamaModel: get('OLLAMA_MODEL'),
    discordToken: get('DISCORD_BOT_TOKEN'),
    discordApiUrl: get('DISCORD_API_URL'),
    braveApiKey: get('BRAVE_API_KEY'),
    braveApiUrl: get('BRAVE_API_URL'),
    mcpStdio: get('MCP_SERVER_STDIO'),
    mcpUrl: get('MCP_SERVER_URL'),
    skillsGitBase: get('SKILLS_GIT_BASE'),
    searxngUrl: get('SEARXNG_URL'),
    mcpServeTools: (get('MCP_SERVE_TOOLS') ?? '')
      .split(',')
      .map((name) => name.trim().toUpperCase())
      .filter((name) => name !== ''),
    mcpToken: get('MACSTATS_MCP_TOKEN'),
    databaseUrl: get('DATABASE_URL'),
    schedulerLeaseMs: lease.value,
    dailyTokens: { perAgent: dailyTokens.perAgent, perChannel: dailyTokens.perChannel },
    discordShards: shards.shards,
    discordShardCount: shards.count,
    memory: readMemorySettings(get, warnings),
    logLevel: get('LOG_LEVEL') ?? 'info',
    diagnosticsSeconds: parseDiagnosticsSetting(get('MACSTATS_DIAGNOSTICS')),
    setting: get,
    warnings,
    describe: () => loaded.describe(),
  };
}

/**
 * Reads `DISCORD_SHARDS` (`0,1`, `0-3`, or both: `0-1,4`) and `DISCORD_SHARD_COUNT`. A bad value
 * is one warning and no sharding (the bot then holds every guild, as with one process).
 */
export function readShards(
  list: string | undefined,
  countText: string | undefined,
  warnings: string[],
): { shards: number[] | undefined; count: number | undefined } {
  if (list === undefined && countText === undefined) return { shards: undefined, count: undefined };
  const count = Number(countText);
  if (countText === undefined || !Number.isInteger(count) || count < 1) {
    warnings.push(
      `DISCORD_SHARD_COUNT "${countText ?? ''}" is not a whole number of shards; running unsharded.`,
    );
    return { shards: undefined, count: undefined };
  }
  if (list === undefined) return { shards: undefined, count };
  const shards = new Set<number>();
  for (const part of list.split(',').map((piece) => piece.trim())) {
    const range = /^(\d+)(?:-(\d+))?$/.exec(part);
    const from = Number(range?.[1]);
    const to = Number(range?.[2] ?? range?.[1]);
    if (!range || from > to || to >= count) {
      warnings.push(
        `DISCORD_SHARDS "${list}" is not a list of shards from 0 to ${count - 1} (like "0,1" or "0-3"); running unsharded.`,
      );
      return { shards: undefined, count: undefined };
    }
    for (let id = from; id <= to; id += 1) shards.add(id);
  }
  return { shards: [...shards].sort((a, b) => a - b), count };
}

/** The files and folders the bot keeps under `MACSTATS_HOME`. */
export function paths(config: Pick<AppConfig, 'home'>) {
  return {
    schedules: join(config.home, 'schedules.json'),
    channels: join(config.home, 'discord_channels.json'),
    /** The bot's own state: last message handled per channel, /model choices. */
    discordState: join(config.home, 'discord_state.json'),
    /** What each message the bot posted carried (the outside content its answer read). */
    discordPosts: join(config.home, 'discord_posts.json'),
    mcp: join(config.home, 'mcp.json'),
    sessions: join(config.home, 'sessions'),
    memory: join(config.home, 'memory'),
    logs: join(config.home, 'logs'),
    /** The last `macstats eval` report. */
    evalReport: join(config.home, 'eval.json'),
    /** Skills in the Agent Skills format, one folder each (`macstats skills add`). */
    skills: join(config.home, 'skills'),
    /** The skills' files the user accepted, and where each came from (`macstats skills trust`). */
    skillPins: join(config.home, 'skill-pins.json'),
    /** Agent profiles, one folder with AGENT.md each. */
    agents: join(config.home, 'agents'),
  };
}
