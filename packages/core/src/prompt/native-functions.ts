import type { Tool as OllamaTool } from 'ollama';
import { argumentFromArgs } from '../parser/json-calls.js';
import type { NativeFunction, Tool } from '../types.js';

/** A native function name resolved to the tool that runs it. */
export interface NativeBinding {
  tool: Tool;
  /** Builds the tool's text argument from the model's arguments object. */
  toArgument(args: Record<string, unknown>): string;
}

/** The native function definitions offered for `tools`, and how a returned call maps back. */
export interface NativeFunctionTable {
  definitions: OllamaTool[];
  /** Looks a returned function name up; exact names first, then the tool names loosely. */
  resolve(name: string): NativeBinding | undefined;
}

function looseKey(name: string): string {
  return name.toLowerCase().replace(/[^a-z0-9]/g, '');
}

/**
 * Builds the native function table: each tool's `nativeFunctions()`, or one function named after
 * the tool with a single string parameter `argument`.
 */
export function buildNativeFunctions(tools: readonly Tool[]): NativeFunctionTable {
  const definitions: OllamaTool[] = [];
  const exact = new Map<string, NativeBinding>();
  const loose = new Map<string, NativeBinding>();
  const singleArgument = (args: Record<string, unknown>) => argumentFromArgs(args).argument;
  for (const tool of tools) {
    let own: NativeFunction[] = [];
    try {
      own = tool.nativeFunctions?.() ?? [];
    } catch {
      // A tool whose function list cannot be read is offered with the default single argument.
    }
    if (own.length > 0) {
      for (const fn of own) {
        definitions.push({
          type: 'function',
          function: {
            name: fn.name,
            description: fn.description,
            parameters: fn.parameters as NonNullable<OllamaTool['function']['parameters']>,
          },
        });
        // A tool's own mapping must not break the answer: when it throws or returns no string,
        // the tool gets the arguments as text and reports what is wrong with them itself.
        exact.set(fn.name, {
          tool,
          toArgument: (args) => {
            try {
              const argument: unknown = fn.toArgument(args);
              if (typeof argument === 'string') return argument;
            } catch {
              // fall through
            }
            return singleArgument(args);
          },
        });
      }
    } else {
      definitions.push({
        type: 'function',
        function: {
          name: tool.name,
          description: `${tool.description} Usage: ${tool.usage}`,
          parameters: {
            type: 'object',
            properties: { argument: { type: 'string', description: tool.usage } },
            required: ['argument'],
          },
        },
      });
    }
    const binding = { tool, toArgument: singleArgument };
    exact.set(tool.name, exact.get(tool.name) ?? binding);
    loose.set(looseKey(tool.name), binding);
  }
  return {
    definitions,
    resolve: (name) => exact.get(name) ?? loose.get(looseKey(name)),
  };
}
