import { readFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import { oauthFilesIn, parseOAuth } from './oauth-config.js';
import type { McpServerSpec } from './server-spec.js';

/** A server with the name its tools are grouped under. */
export interface McpNamedServer {
  name: string;
  server: McpServerSpec;
  /** `"trust": true` in `mcp.json`: the user trusts this server (see `McpConnectOptions.trust`). */
  trust?: boolean;
}

/** What a config yields: the servers that are usable, and one sentence per entry that is not. */
export interface McpConfig {
  servers: McpNamedServer[];
  errors: string[];
}

type Entry = Record<string, unknown>;

function stringRecord(value: unknown, what: string, errors: string[]): Record<string, string> | undefined {
  if (value === undefined) return undefined;
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    errors.push(`${what} must be an object of strings.`);
    return undefined;
  }
  const record: Record<string, string> = {};
  for (const [key, item] of Object.entries(value)) {
    if (typeof item === 'string' || typeof item === 'number' || typeof item === 'boolean')
      record[key] = String(item);
    else errors.push(`${what}.${key} must be a string.`);
  }
  return record;
}

/** Server names become part of tool names: keep letters, digits, `_` and `-`. */
export function serverKey(name: string): string {
  const key = name
    .trim()
    .replace(/[^A-Za-z0-9_-]+/g, '-')
    .replace(/_{2,}/g, '_')
    .replace(/^-+|-+$/g, '');
  return key || 'server';
}

function parseEntry(name: string, entry: unknown, errors: string[]): McpServerSpec | undefined {
  const where = `MCP server "${name}"`;
  if (typeof entry !== 'object' || entry === null || Array.isArray(entry)) {
    errors.push(`${where} must be an object with "command" or "url".`);
    return undefined;
  }
  const { command, args, env, cwd, url, headers, type, transport } = entry as Entry;
  if ((command === undefined) === (url === undefined)) {
    errors.push(`${where} needs exactly one of "command" (a local server) or "url" (a remote one).`);
    return undefined;
  }
  const problems: string[] = [];
  if (url !== undefined) {
    if (typeof url !== 'string' || !/^https?:\/\//i.test(url)) {
      errors.push(`${where}: "url" must be an http:// or https:// URL.`);
      return undefined;
    }
    const kind = String(transport ?? type ?? 'auto').toLowerCase();
    const wanted =
      kind === 'sse' ? 'sse' : /^(http|streamable-?http)$/.test(kind) ? 'streamable-http' : 'auto';
    const headerRecord = stringRecord(headers, `${where}: "headers"`, problems);
    const signIn = parseOAuth((entry as Entry).oauth, where, problems);
    errors.push(...problems);
    if (signIn === null) return undefined;
    return {
      url,
      transport: wanted,
      ...(headerRecord ? { headers: headerRecord } : {}),
      ...(signIn ? { oauth: signIn } : {}),
    };
  }
  if (typeof command !== 'string' || command.trim() === '') {
    errors.push(`${where}: "command" must be a non-empty string.`);
    return undefined;
  }
  if (args !== undefined && !(Array.isArray(args) && args.every((arg) => typeof arg === 'string'))) {
    errors.push(`${where}: "args" must be a list of strings.`);
    return undefined;
  }
  const envRecord = stringRecord(env, `${where}: "env"`, problems);
  errors.push(...problems);
  return {
    command,
    args: (args as string[] | undefined) ?? [],
    ...(envRecord ? { env: envRecord } : {}),
    ...(typeof cwd === 'string' ? { cwd } : {}),
  };
}

/**
 * Reads the `mcpServers` format that Claude Desktop and Cursor use (`servers`, as VS Code
 * writes it, works too). Each entry has `command`/`args`/`env`/`cwd` or `url` (with optional
 * `headers` and `type: "sse" | "http"`); `"disabled": true` skips one. A bad entry gives one
 * sentence in `errors` and the others still load.
 *
 * @example
 * ```ts
 * parseMcpConfig('{"mcpServers": {"memory": {"command": "npx", "args": ["-y", "@modelcontextprotocol/server-memory"]}}}');
 * // { servers: [{ name: 'memory', server: { command: 'npx', args: [...] } }], errors: [] }
 * ```
 */
export function parseMcpConfig(json: string): McpConfig {
  let root: unknown;
  try {
    root = JSON.parse(json);
  } catch (error) {
    return { servers: [], errors: [`The MCP config is not valid JSON (${(error as Error).message}).`] };
  }
  const table = (root as Entry | null)?.mcpServers ?? (root as Entry | null)?.servers;
  if (typeof table !== 'object' || table === null || Array.isArray(table)) {
    return {
      servers: [],
      errors: ['The MCP config needs an "mcpServers" object: {"mcpServers": {"name": {...}}}.'],
    };
  }
  const servers: McpNamedServer[] = [];
  const errors: string[] = [];
  const seen = new Set<string>();
  for (const [rawName, entry] of Object.entries(table)) {
    if ((entry as Entry | null)?.disabled === true) continue;
    const name = serverKey(rawName);
    if (seen.has(name)) {
      errors.push(
        `MCP server "${rawName}" has the same name as another server once spelled "${name}"; it is skipped.`,
      );
      continue;
    }
    const server = parseEntry(rawName, entry, errors);
    if (!server) continue;
    const trust = (entry as Entry).trust;
    if (trust !== undefined && typeof trust !== 'boolean') {
      errors.push(
        `MCP server "${rawName}": "trust" must be true or false; the server is taken as untrusted.`,
      );
    }
    seen.add(name);
    servers.push(trust === true ? { name, server, trust } : { name, server });
  }
  return { servers, errors };
}

/** Reads `parseMcpConfig` from a file; a missing file is an empty config, not an error. */
export async function loadMcpConfig(file: string): Promise<McpConfig> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return { servers: [], errors: [] };
    return { servers: [], errors: [`${file}: cannot be read (${(error as Error).message}).`] };
  }
  const config = parseMcpConfig(text);
  return {
    servers: config.servers.map((entry) => oauthFilesBesides(entry, file)),
    errors: config.errors.map((error) => `${file}: ${error}`),
  };
}

/** A relative file an `"oauth"` entry names is read from the folder of the config file. */
function oauthFilesBesides(entry: McpNamedServer, file: string): McpNamedServer {
  const oauth = 'url' in entry.server ? entry.server.oauth : undefined;
  if (!oauth) return entry;
  return { ...entry, server: { ...entry.server, oauth: oauthFilesIn(oauth, dirname(file)) } };
}

/** The environment values the apps read for MCP (the library never reads the environment itself). */
export interface McpEnvironment {
  /** `command|arg1|arg2`, e.g. `npx|-y|@openbnb/mcp-server-airbnb`. Wins over the URL. */
  MCP_SERVER_STDIO?: string | undefined;
  /** An SSE or Streamable HTTP endpoint. */
  MCP_SERVER_URL?: string | undefined;
}

/**
 * The server named by `MCP_SERVER_STDIO` or else `MCP_SERVER_URL`, as in the original app
 * (first match wins), under `name` (default `'default'`).
 */
export function mcpServersFromEnvironment(environment: McpEnvironment, name = 'default'): McpNamedServer[] {
  const stdio = environment.MCP_SERVER_STDIO?.trim();
  if (stdio) return [{ name, server: { stdio } }];
  const url = environment.MCP_SERVER_URL?.trim();
  if (url) return [{ name, server: { url } }];
  return [];
}

/**
 * All configured servers: the environment's first, then `mcp.json`'s. A name taken twice
 * keeps the first and reports the second.
 */
export async function loadMcpServers(options: {
  file?: string;
  environment?: McpEnvironment;
}): Promise<McpConfig> {
  const fromEnvironment = options.environment ? mcpServersFromEnvironment(options.environment) : [];
  const fromFile = options.file ? await loadMcpConfig(options.file) : { servers: [], errors: [] };
  const servers = [...fromEnvironment];
  const errors = [...fromFile.errors];
  for (const entry of fromFile.servers) {
    if (servers.some((known) => known.name === entry.name)) {
      errors.push(`MCP server "${entry.name}" is named twice (environment and file); the file's is skipped.`);
    } else servers.push(entry);
  }
  return { servers, errors };
}
