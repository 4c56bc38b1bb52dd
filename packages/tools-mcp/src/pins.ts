import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { writePrivateFile } from '@macstats/core/internal';
import type { McpToolInfo } from './tool-info.js';

/**
 * The tool definitions a user accepted, per server: a tool whose name, description, schema or
 * annotations change after they were pinned is not offered until the user pins them again, so a
 * server cannot swap a harmless description for an injected one after it was first used.
 */
export interface McpPins {
  /** The pinned fingerprints of a server's tools by name, or undefined when none are pinned yet. */
  get(server: string): Readonly<Record<string, string>> | undefined;
  /** Pins these tools as the server's accepted definitions (replacing what was pinned). */
  set(server: string, tools: readonly McpToolInfo[]): Promise<void>;
}

/** A stable text of a JSON value: object keys sorted, so the same definition always reads the same. */
function stableJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(stableJson).join(',')}]`;
  if (typeof value === 'object' && value !== null) {
    const entries = Object.entries(value as Record<string, unknown>)
      .filter(([, item]) => item !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([key, item]) => `${JSON.stringify(key)}:${stableJson(item)}`).join(',')}}`;
  }
  return JSON.stringify(value) ?? 'null';
}

/** The fingerprint of one tool definition: a SHA-256 of everything the model reads of it. */
export function toolFingerprint(tool: McpToolInfo): string {
  const { name, title, description, inputSchema, annotations } = tool;
  return createHash('sha256')
    .update(stableJson({ name, title, description, inputSchema, annotations }))
    .digest('hex');
}

/** Splits a server's listed tools into those matching its pins and those that changed or are new. */
export function checkPins(
  pinned: Readonly<Record<string, string>>,
  tools: readonly McpToolInfo[],
): { offered: McpToolInfo[]; changed: string[] } {
  const offered: McpToolInfo[] = [];
  const changed: string[] = [];
  for (const tool of tools) {
    if (pinned[tool.name] === toolFingerprint(tool)) offered.push(tool);
    else changed.push(tool.name);
  }
  return { offered, changed };
}

type PinDocument = { servers: Record<string, Record<string, string>> };

function isPinDocument(value: unknown): value is PinDocument {
  const servers = (value as PinDocument | null)?.servers;
  return (
    typeof servers === 'object' &&
    servers !== null &&
    Object.values(servers).every(
      (tools) =>
        typeof tools === 'object' &&
        tools !== null &&
        Object.values(tools).every((f) => typeof f === 'string'),
    )
  );
}

/**
 * Pins kept in a JSON file (`$MACSTATS_HOME/mcp-pins.json` in the apps), written atomically. A
 * missing file holds no pins; an unreadable or corrupt one is an error, never silently reset, so a
 * broken file cannot make every changed tool count as new.
 *
 * @throws Error when the file exists but cannot be read as pins.
 */
export async function loadMcpPins(file: string): Promise<McpPins> {
  let document: PinDocument = { servers: {} };
  try {
    const parsed: unknown = JSON.parse(await readFile(file, 'utf8'));
    if (!isPinDocument(parsed))
      throw new Error('it is not {"servers": {"<server>": {"<tool>": "<sha256>"}}}');
    document = parsed;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT')
      throw new Error(
        `${file}: the pinned MCP tool definitions cannot be read (${(error as Error).message}).`,
      );
  }
  let writing: Promise<void> = Promise.resolve();
  return {
    get: (server) => document.servers[server],
    set(server, tools) {
      document.servers[server] = Object.fromEntries(tools.map((tool) => [tool.name, toolFingerprint(tool)]));
      const text = `${JSON.stringify(document, null, 2)}\n`;
      // Writes go one after another, each with the whole document as it is then.
      writing = writing.catch(() => {}).then(() => writePrivateFile(file, text));
      return writing;
    },
  };
}

/** Pins kept in memory only: every process pins anew at first use. */
export function createMemoryPins(): McpPins {
  const servers: Record<string, Record<string, string>> = {};
  return {
    get: (server) => servers[server],
    async set(server, tools) {
      servers[server] = Object.fromEntries(tools.map((tool) => [tool.name, toolFingerprint(tool)]));
    },
  };
}
