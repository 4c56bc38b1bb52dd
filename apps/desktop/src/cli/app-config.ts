import { readFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { join, resolve } from 'node:path';

/** Where one setting came from, in the order API.md binds: the environment wins. */
export type ConfigSource = 'environment' | 'cwd-file' | 'home-file' | 'default';

/** The app's settings, read from the environment and the two `.config.env` files. */
export interface AppConfig {
  /** `MACSTATS_HOME`, absolute; default `~/.mac-stats`. */
  home: string;
  ollamaHost: string;
  ollamaModel: string | undefined;
  /** Every value by name, for the tools (BRAVE_API_KEY, MCP_SERVER_URL, ALLOW_LOCAL_CMD, …). */
  values: Record<string, string | undefined>;
  /** Where each value came from. */
  sources: Record<string, ConfigSource>;
}

/** Default Ollama address. */
export const DEFAULT_OLLAMA_HOST = 'http://127.0.0.1:11434';

/**
 * Parses `.config.env`: `KEY=value` lines, optional `export `, `#` comments, values optionally
 * in single or double quotes. Lines that are none of these are skipped.
 */
export function parseConfigEnv(text: string): Record<string, string> {
  const values: Record<string, string> = {};
  for (const line of text.split(/\r?\n/)) {
    const match = /^\s*(?:export\s+)?([A-Za-z_][A-Za-z0-9_]*)\s*=\s*(.*?)\s*$/.exec(line);
    if (!match?.[1]) continue;
    let value = match[2] ?? '';
    const quoted = /^(['"])(.*)\1$/.exec(value);
    if (quoted) value = quoted[2] ?? '';
    else value = value.replace(/\s+#.*$/, '');
    values[match[1]] = value;
  }
  return values;
}

function readConfigFile(path: string): Record<string, string> {
  try {
    return parseConfigEnv(readFileSync(path, 'utf8'));
  } catch {
    return {};
  }
}

/**
 * Reads the settings as both apps do: the environment first, then `.config.env` in `cwd`, then
 * `$MACSTATS_HOME/.config.env` (MACSTATS_HOME itself from the first two, else `~/.mac-stats`).
 * Empty values count as unset.
 */
export function readAppConfig(
  env: Record<string, string | undefined>,
  cwd: string,
  home = homedir(),
): AppConfig {
  const layers: Array<[ConfigSource, Record<string, string | undefined>]> = [
    ['environment', env],
    ['cwd-file', readConfigFile(join(cwd, '.config.env'))],
  ];
  const pick = (name: string): [string, ConfigSource] | undefined => {
    for (const [source, values] of layers) {
      const value = values[name]?.trim();
      if (value) return [value, source];
    }
    return undefined;
  };
  const homeSetting = pick('MACSTATS_HOME');
  const macstatsHome = resolve(
    cwd,
    (homeSetting?.[0] ?? join(home, '.mac-stats')).replace(/^~(?=$|\/)/, home),
  );
  layers.push(['home-file', readConfigFile(join(macstatsHome, '.config.env'))]);

  const names = new Set(layers.flatMap(([, values]) => Object.keys(values)));
  const values: Record<string, string | undefined> = {};
  const sources: Record<string, ConfigSource> = {};
  for (const name of names) {
    const found = pick(name);
    if (found) [values[name], sources[name]] = found;
  }
  return {
    home: macstatsHome,
    ollamaHost: normaliseHost(values['OLLAMA_HOST'] ?? DEFAULT_OLLAMA_HOST),
    ollamaModel: values['OLLAMA_MODEL'],
    values,
    sources,
  };
}

/** Ollama accepts `OLLAMA_HOST=127.0.0.1:11434`; the client wants a URL. */
export function normaliseHost(host: string): string {
  const withScheme = /^https?:\/\//i.test(host) ? host : `http://${host}`;
  return withScheme.replace(/\/+$/, '');
}
