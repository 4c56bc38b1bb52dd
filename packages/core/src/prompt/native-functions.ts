import type { ModelToolDefinition } from '../model/chat-model.js';
import { argumentFromArgs } from '../parser/json-calls.js';
import { looseKey } from '../parser/tool-syntax.js';
import type { NativeFunction, Tool } from '../types.js';

/** A native function name resolved to the tool that runs it. */
export interface NativeBinding {
  tool: Tool;
  /** Builds the tool's text argument from the model's arguments object. */
  toArgument(args: Record<string, unknown>): string;
  /** True when the object goes to the tool as it is (the tool declares `parameters`). */
  structured: boolean;
}

/** The native function definitions offered for `tools`, and how a returned call maps back. */
export interface NativeFunctionTable {
  definitions: ModelToolDefinition[];
  /** Looks a returned function name up; exact names first, then the tool names loosely. */
  resolve(name: string): NativeBinding | undefined;
}

/** The text argument of an object: the bare value of a one-value call, else a preferred field or the JSON. */
const textArgument = (args: Record<string, unknown>) => argumentFromArgs(args).argument;

/** A tool's own mapping must not break the answer: when it throws or gives no string, the object's text is used. */
function safeMapping(fn: NativeFunction): (args: Record<string, unknown>) => string {
  return (args) => {
    try {
      const argument: unknown = fn.toArgument(args);
      if (typeof argument === 'string') return argument;
    } catch {
      // fall through
    }
    return textArgument(args);
  };
}

function ownFunctions(tool: Tool): NativeFunction[] {
  try {
    return tool.nativeFunctions?.() ?? [];
  } catch {
    // A tool whose function list cannot be read is offered with its schema or one argument.
    return [];
  }
}

/**
 * Builds the native function table: each tool's `nativeFunctions()`; else one function named
 * after the tool with its `parameters` as they are; else one string parameter `argument`.
 */
export function buildNativeFunctions(tools: readonly Tool[]): NativeFunctionTable {
  const definitions: ModelToolDefinition[] = [];
  const exact = new Map<string, NativeBinding>();
  const loose = new Map<string, NativeBinding>();
  for (const tool of tools) {
    const structured = tool.parameters !== undefined;
    const own = ownFunctions(tool);
    for (const fn of own) {
      definitions.push({ name: fn.name, description: fn.description, parameters: fn.parameters });
      const binding: NativeBinding = { tool, toArgument: safeMapping(fn), structured: false };
      exact.set(fn.name, binding);
      for (const alias of fn.aliases ?? [])
        if (!loose.has(looseKey(alias))) loose.set(looseKey(alias), binding);
    }
    if (own.length === 0)
      definitions.push({
        name: tool.name,
        description: `${tool.description} Usage: ${tool.usage}`,
        parameters: tool.parameters ?? {
          type: 'object',
          properties: { argument: { type: 'string', description: tool.usage } },
          required: ['argument'],
        },
      });
    const binding: NativeBinding = { tool, toArgument: textArgument, structured };
    exact.set(tool.name, exact.get(tool.name) ?? binding);
    // A tool's own name wins over another tool's alias.
    loose.set(looseKey(tool.name), binding);
  }
  return {
    definitions,
    resolve: (name) => exact.get(name) ?? loose.get(looseKey(name)),
  };
}

const tables = new WeakMap<readonly Tool[], NativeFunctionTable>();

/**
 * {@link buildNativeFunctions} for the tools of one answer, built once per tool list when every
 * tool's functions follow from its fixed fields (name, description, usage, parameters). A list
 * with a `nativeFunctions()` hook (an MCP server's tools, which can change) is built every time.
 * Sharing the table also keeps its definitions array the same, so their token estimate is kept.
 */
export function nativeFunctionsOf(tools: readonly Tool[]): NativeFunctionTable {
  if (tools.some((tool) => tool.nativeFunctions !== undefined)) return buildNativeFunctions(tools);
  let table = tables.get(tools);
  if (table === undefined) {
    table = buildNativeFunctions(tools);
    tables.set(tools, table);
  }
  return table;
}
