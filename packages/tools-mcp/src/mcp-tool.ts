import {
  type CallLabels,
  defineTool,
  type NativeFunction,
  type Tool,
  type ToolContext,
  type ToolResult,
} from '@macstats/core';
import type { McpCallOptions } from './connection-types.js';
import { MCP_DEFAULTS } from './defaults.js';
import { describeParameters } from './describe-schema.js';
import { elicitationThroughApproval } from './elicitation-approval.js';
import { argumentsFor, schemaMismatch, splitInvocation } from './tool-arguments.js';
import type { McpToolInfo } from './tool-info.js';
import { functionNames, resolveName } from './tool-names.js';

/** One tool as the model sees it: the name it writes, the server's tool, who runs it. */
export interface McpCatalogEntry {
  /** What the model writes after `MCP:`: the tool name, or `server__tool` with several servers. */
  displayName: string;
  tool: McpToolInfo;
  connection: {
    readonly name: string;
    /** The user trusts this server (`trust` in `mcp.json`): its words are not outside content. */
    readonly trusted?: boolean;
    callTool(name: string, args: Record<string, unknown>, options?: McpCallOptions): Promise<ToolResult>;
  };
}

/** The `MCP` tool: a core `Tool` whose `run` always resolves a `ToolResult`. */
export interface McpTool extends Tool {
  run(argument: string, context: ToolContext): Promise<ToolResult>;
  details(): string;
  nativeFunctions(): NativeFunction[];
}

/** Options of `createMcpTool`. */
export interface McpToolOptions {
  /** Longest tool description in the list; default 160 characters. */
  maxDescriptionChars: number;
  /** Why no tool is available, when none is; shown to the model instead of a list. */
  unavailable(): string | undefined;
  /** Called whenever the list is read: lets a set revive servers that were down. */
  onRead?(): void;
}

const listedNames = 30;

function firstLine(text: string | undefined, maxChars: number): string {
  const line =
    (text ?? '')
      .split(/\n\s*\n|\n(?=[-*#])/)[0]
      ?.replace(/\s+/g, ' ')
      .trim() ?? '';
  return line.length > maxChars ? `${line.slice(0, maxChars - 1)}…` : line;
}

/**
 * The `MCP` tool over a changing catalogue of server tools. The model writes
 * `MCP: <tool_name> <arguments>`, where arguments are a JSON object, or plain text for a tool
 * with a single required string parameter.
 */
export function createMcpTool(catalog: () => McpCatalogEntry[], options: McpToolOptions): McpTool {
  const entries = () => {
    options.onRead?.();
    return catalog();
  };
  const names = (list: McpCatalogEntry[]) =>
    list
      .slice(0, listedNames)
      .map((entry) => entry.displayName)
      .join(', ') + (list.length > listedNames ? `, … (${list.length - listedNames} more)` : '');
  const fail = (text: string): ToolResult => ({ isError: true, text });
  /**
   * The server tool a call names and the arguments it gets, read once for the labels and the run
   * (so the run calls the very tool the labels judged). A call that cannot be made keeps its
   * failure for `run`: it may quote the servers' tool names, which must reach the model as
   * untrusted output, never as a problem sentence.
   */
  const read = (argument: string): McpCall => {
    const list = entries();
    const invocation = splitInvocation(objectInvocation(argument) ?? argument);
    if (list.length === 0) {
      const why = options.unavailable();
      return {
        failure: `No MCP tools are available right now${why ? ` (${why})` : ''}. Answer without MCP.`,
      };
    }
    if (!invocation) {
      return { failure: `Write MCP: <tool_name> <arguments>, with one of these tools: ${names(list)}.` };
    }
    const entry = resolveName(list, invocation.toolName);
    if (!entry)
      return { failure: `There is no MCP tool "${invocation.toolName}". Available: ${names(list)}.` };
    const outcome = argumentsFor(entry.displayName, entry.tool, invocation.argumentText);
    if ('error' in outcome) return { entry, failure: outcome.error };
    const mismatch = schemaMismatch(entry.displayName, entry.tool, outcome.args);
    return mismatch ? { entry, failure: mismatch } : { entry, args: outcome.args };
  };

  const untrustedServers = () => [
    ...new Set(catalog().flatMap((entry) => (entry.connection.trusted ? [] : [entry.connection.name]))),
  ];
  const tool = defineTool<McpCall, ToolResult>({
    name: 'MCP',
    description:
      'Calls a tool of a connected MCP server (Model Context Protocol); the tools are listed below.',
    usage: 'MCP: <tool_name> <arguments as a JSON object, or plain text for a tool with one text parameter>',
    parse: ({ argument }) => ({ input: read(argument) }),
    // A call naming no tool never reaches a server.
    // What the call carries is its arguments' values: the policy weighs them against the user's words.
    labels: (call) =>
      call.entry
        ? { ...entryLabels(call.entry), ...('args' in call ? { payload: leavesOf(call.args) } : {}) }
        : {},
    describedByOutside() {
      const servers = untrustedServers();
      return servers.length > 0 ? `the tool descriptions of MCP server ${servers.join(', ')}` : undefined;
    },
    describedByDestinations: () => untrustedServers().map((server) => `mcp:${server}`),
    async run(call: McpCall, context: ToolContext): Promise<ToolResult> {
      if ('failure' in call) return fail(call.failure);
      const { entry, args } = call;
      context.onStatus?.(`Calling MCP tool ${entry.displayName}…`);
      context.logger?.debug({ tool: entry.displayName, server: entry.connection.name }, 'MCP tool call');
      // A question the server asks mid-call goes to whoever approves this answer's calls.
      const approve = context.approve;
      const elicitation = approve
        ? elicitationThroughApproval(approve, {
            timeoutMs: MCP_DEFAULTS.callTimeoutMs,
            conversationId: context.conversationId,
            onDecline: (message, reason) =>
              context.logger?.info(
                { server: entry.connection.name, question: message.slice(0, 200), reason },
                'MCP question declined',
              ),
          })
        : undefined;
      return entry.connection.callTool(entry.tool.name, args, {
        signal: context.signal,
        displayName: entry.displayName,
        ...(elicitation ? { elicitation } : {}),
      });
    },
  });
  return {
    ...tool,
    details() {
      const list = entries();
      if (list.length === 0) {
        const why = options.unavailable();
        return `No MCP tools are available right now${why ? ` (${why})` : ''}; do not use MCP.`;
      }
      const lines = list.map((entry) => {
        const about = firstLine(entry.tool.description ?? entry.tool.title, options.maxDescriptionChars);
        return `- ${entry.displayName}${describeParameters(entry.tool.inputSchema)}${about ? `: ${about}` : ''}`;
      });
      return `MCP tools:\n${lines.join('\n')}`;
    },
    nativeFunctions(): NativeFunction[] {
      const list = entries();
      const functionNameList = functionNames(list.map((entry) => entry.displayName));
      return list.map((entry, index) => ({
        name: functionNameList[index] as string,
        description:
          firstLine(entry.tool.description ?? entry.tool.title, options.maxDescriptionChars) ||
          `MCP tool ${entry.displayName}`,
        parameters: withoutSchemaKey(entry.tool.inputSchema),
        toArgument: (args) => `${entry.displayName} ${JSON.stringify(args ?? {})}`,
        aliases: [entry.displayName, entry.tool.name],
      }));
    },
  };
}

/** One MCP call read: the server tool and its arguments, or why it cannot be made. */
type McpCall =
  | { entry: McpCatalogEntry; args: Record<string, unknown> }
  | { entry?: McpCatalogEntry; failure: string };

/**
 * What a call of a server's tool is, for containment. Every server the user configured may return
 * their own data (a files server, their own `macstats mcp`): its results are private **and**
 * outside content unless it is trusted and closed-world. A tool persists unless annotated
 * read-only (`readOnlyHint: true`), trusted or not: a server that lies about it keeps only what
 * comes back through it, as outside content. Anything handed to an untrusted server goes to it;
 * a trusted server's tool sends nothing only when annotated closed-world (`openWorldHint: false`).
 */
export function entryLabels(entry: McpCatalogEntry): CallLabels {
  const destination = `mcp:${entry.connection.name}`;
  const hints = entry.tool.annotations ?? {};
  const persists = hints.readOnlyHint !== true ? { persists: true } : {};
  if (entry.connection.trusted && hints.openWorldHint === false) return { private: true, ...persists };
  return { outside: true, private: true, sendsTo: `${destination}/${entry.tool.name}`, ...persists };
}

/**
 * `{"tool": "get-sum", "arguments": {"a": 1}}` or `{"tool": "get-sum", "a": 1}`: the whole
 * call written as one object (a JSON-minded model's `MCP` call) becomes `get-sum {"a":1}`, so
 * every argument reaches the server tool, not only one field of the object.
 */
function objectInvocation(argument: string): string | undefined {
  const text = argument.trim();
  if (!text.startsWith('{')) return undefined;
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return undefined;
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return undefined;
  const { tool, name, tool_name: toolName, arguments: nested, ...rest } = value as Record<string, unknown>;
  const written = [tool, toolName, name].find((candidate) => typeof candidate === 'string');
  if (typeof written !== 'string') return undefined;
  const args = typeof nested === 'object' && nested !== null && !Array.isArray(nested) ? nested : rest;
  return `${written} ${JSON.stringify(args)}`;
}

// `$schema` says nothing to a model; everything else of the input schema is kept.
function withoutSchemaKey(schema: Record<string, unknown>): Record<string, unknown> {
  const { $schema: _ignored, ...rest } = schema;
  return { type: 'object', properties: {}, ...rest };
}

/** Every value in a call's arguments, as text (strings, numbers and booleans, however deep). */
function leavesOf(value: unknown, found: string[] = []): string[] {
  if (typeof value === 'string') found.push(value);
  else if (typeof value === 'number' || typeof value === 'boolean') found.push(String(value));
  else if (Array.isArray(value)) for (const item of value) leavesOf(item, found);
  else if (typeof value === 'object' && value !== null)
    for (const item of Object.values(value)) leavesOf(item, found);
  return found;
}
