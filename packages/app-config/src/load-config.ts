import { readFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { isAbsolute, join, resolve } from 'node:path';
import { DAILY_TOKEN_SETTING_KEYS } from './daily-token-limits.js';
import { maskConfigValue } from './mask-config-value.js';
import { parseEnvFile } from './parse-env-file.js';
import { VOICE_SETTING_KEYS } from './voice-settings.js';

/** The variables the apps read (API.md, "Apps: environment"). */
export const CONFIG_KEYS = [
  'OLLAMA_HOST',
  'OLLAMA_MODEL',
  'DISCORD_BOT_TOKEN',
  'DISCORD_API_URL',
  'BRAVE_API_KEY',
  'BRAVE_API_URL',
  'MCP_SERVER_STDIO',
  'MCP_SERVER_URL',
  'ALLOW_LOCAL_CMD',
  'MACSTATS_HOME',
  'FETCH_ALLOW_HOSTS',
  'SEARXNG_URL',
  'ALLOW_BROWSER',
  'BROWSER_CDP_URL',
  'CHROMIUM_PATH',
  ...DAILY_TOKEN_SETTING_KEYS,
  ...VOICE_SETTING_KEYS,
] as const;

/** The config file's name, in the current directory and in MACSTATS_HOME. */
export const CONFIG_FILE_NAME = '.config.env';

/** Options of {@link loadConfig}. */
export interface LoadConfigOptions {
  /** The environment variables the app passes in (its own process's); the library never reads them itself. */
  env: Readonly<Record<string, string | undefined>>;
  /** The current directory, e.g. `process.cwd()`. */
  cwd: string;
  /** The user's home directory, for `~` and the default MACSTATS_HOME `~/.mac-stats`. Default: the OS's. */
  home?: string | undefined;
  /** Keys reported by `values` and `describe()` besides those found in files. Default {@link CONFIG_KEYS}. */
  keys?: readonly string[] | undefined;
}

/** Where a value came from: `env`, or the path of the file. */
export type ConfigSource = 'env' | string;

/** The loaded configuration. */
export interface LoadedConfig {
  /** Every known key that has a value, and every key found in a file, resolved. */
  values: Record<string, string>;
  /** The value of any key: environment first, then `./.config.env`, then `$MACSTATS_HOME/.config.env`. */
  get(key: string): string | undefined;
  /** Where each value of `values` came from. */
  sources: Record<string, ConfigSource>;
  /** The config files that were read. */
  files: string[];
  /** The data directory: MACSTATS_HOME (with `~` expanded), default `~/.mac-stats`. */
  macstatsHome: string;
  /** Lines of the config files that could not be read. */
  warnings: string[];
  /** One `KEY=value (source)` line per value, secrets masked: safe to log. */
  describe(): string;
}

function readConfigFile(path: string): { values: Record<string, string>; warnings: string[] } | null {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' || code === 'ENOTDIR') return null;
    return { values: {}, warnings: [`${path}: could not be read (${code ?? String(error)}); ignored.`] };
  }
  return parseEnvFile(text, path);
}

function expandHome(path: string, home: string, cwd: string): string {
  const expanded = path === '~' ? home : path.startsWith('~/') ? join(home, path.slice(2)) : path;
  return isAbsolute(expanded) ? expanded : resolve(cwd, expanded);
}

/**
 * Loads the apps' configuration: the environment first, then `.config.env` in `cwd`, then
 * `$MACSTATS_HOME/.config.env`; the first source that has a key wins. An empty environment
 * variable counts as unset. MACSTATS_HOME itself comes from the environment or `./.config.env`.
 *
 * @example
 * // `environment` and `folder` are the app's: its process's variables and working directory.
 * const config = loadConfig({ env: environment, cwd: folder });
 * logger.info(config.describe());
 * const host = config.get('OLLAMA_HOST') ?? DEFAULT_OLLAMA_HOST;
 */
export function loadConfig(options: LoadConfigOptions): LoadedConfig {
  const home = options.home ?? homedir();
  const warnings: string[] = [];
  const files: string[] = [];
  const layers: Array<{ source: ConfigSource; values: Record<string, string> }> = [];

  const envValues: Record<string, string> = {};
  for (const [key, value] of Object.entries(options.env))
    if (value !== undefined && value !== '') envValues[key] = value;
  layers.push({ source: 'env', values: envValues });

  const addFile = (path: string) => {
    const read = readConfigFile(path);
    if (!read) return;
    files.push(path);
    warnings.push(...read.warnings);
    layers.push({ source: path, values: read.values });
  };
  const localFile = resolve(options.cwd, CONFIG_FILE_NAME);
  addFile(localFile);
  const homeSetting = envValues.MACSTATS_HOME ?? layers[1]?.values.MACSTATS_HOME;
  const macstatsHome = expandHome(homeSetting || '~/.mac-stats', home, options.cwd);
  const homeFile = join(macstatsHome, CONFIG_FILE_NAME);
  if (homeFile !== localFile) addFile(homeFile);

  const lookup = (key: string): { value: string; source: ConfigSource } | undefined => {
    for (const layer of layers) {
      const value = layer.values[key];
      if (value !== undefined) return { value, source: layer.source };
    }
    return undefined;
  };

  const keys = new Set<string>(options.keys ?? CONFIG_KEYS);
  for (const layer of layers.slice(1)) for (const key of Object.keys(layer.values)) keys.add(key);
  const values: Record<string, string> = {};
  const sources: Record<string, ConfigSource> = {};
  for (const key of [...keys].sort()) {
    const found = lookup(key);
    if (found) {
      values[key] = found.value;
      sources[key] = found.source;
    }
  }
  // MACSTATS_HOME is always reported resolved (`~` expanded, absolute).
  values.MACSTATS_HOME = macstatsHome;
  sources.MACSTATS_HOME ??= 'default';

  return {
    values,
    get: (key) => (key === 'MACSTATS_HOME' ? macstatsHome : lookup(key)?.value),
    sources,
    files,
    macstatsHome,
    warnings,
    describe: () =>
      Object.keys(values)
        .sort()
        .map((key) => `${key}=${maskConfigValue(key, values[key] ?? '')} (${sources[key]})`)
        .join('\n'),
  };
}
