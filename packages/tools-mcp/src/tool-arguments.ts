import { createRequire } from 'node:module';
import type { AjvJsonSchemaValidator } from '@modelcontextprotocol/sdk/validation/ajv';
import { describeParameters, singleTextParameter } from './describe-schema.js';
import type { McpToolInfo } from './tool-info.js';

/** `MCP: <tool_name> <arguments>` after `MCP:`, split into the name and the raw arguments. */
export interface McpInvocation {
  toolName: string;
  /** Everything after the name, trimmed; empty when there were no arguments. */
  argumentText: string;
}

/**
 * Splits the text the model wrote after `MCP:` into the tool name and its arguments. Quotes
 * or backticks around the name and a colon after it are tolerated, as models write both.
 * Returns `undefined` when there is no name at all.
 */
export function splitInvocation(argument: string): McpInvocation | undefined {
  const trimmed = argument.trim();
  const match = /^[`'"]?([^\s`'"{:]+)[`'"]?:?\s*([\s\S]*)$/.exec(trimmed);
  if (!match?.[1]) return undefined;
  return { toolName: match[1], argumentText: (match[2] ?? '').trim() };
}

/** The arguments object for a call, or one sentence saying why there is none. */
export type ArgumentsOutcome = { args: Record<string, unknown> } | { error: string };

/**
 * Turns the argument text into the tool's arguments object: a JSON object as written, or
 * plain text given to the tool's single required string parameter. Nothing else is guessed.
 */
export function argumentsFor(displayName: string, tool: McpToolInfo, argumentText: string): ArgumentsOutcome {
  const signature = describeParameters(tool.inputSchema);
  if (argumentText === '') return { args: {} };
  if (argumentText.startsWith('{') || argumentText.startsWith('[')) {
    let value: unknown;
    try {
      value = JSON.parse(argumentText);
    } catch (error) {
      return {
        error: `The arguments for MCP tool "${displayName}" look like JSON but do not parse (${(error as Error).message}); write one JSON object for ${signature}.`,
      };
    }
    if (typeof value !== 'object' || value === null || Array.isArray(value)) {
      return {
        error: `MCP tool "${displayName}" takes a JSON object of arguments ${signature}, not a list.`,
      };
    }
    return { args: value as Record<string, unknown> };
  }
  const parameter = singleTextParameter(tool.inputSchema);
  if (parameter === undefined) {
    return {
      error: `MCP tool "${displayName}" takes a JSON object of arguments ${signature}; plain text fits only a tool with one text parameter.`,
    };
  }
  return { args: { [parameter]: unquote(argumentText) } };
}

// A text argument written as a JSON string ("Paris") means the string inside the quotes.
function unquote(text: string): string {
  if (text.length >= 2 && text.startsWith('"') && text.endsWith('"')) {
    try {
      const value: unknown = JSON.parse(text);
      if (typeof value === 'string') return value;
    } catch {
      // Not a JSON string after all: keep the text as written.
    }
  }
  return text;
}

type Check = (input: unknown) => { valid: boolean; errorMessage?: string | undefined };
// The SDK's ajv validator is required on the first check, not when the package is imported: a
// process with no MCP server never loads ajv.
const require = createRequire(import.meta.url);
let validator: AjvJsonSchemaValidator | undefined;
const checks = new WeakMap<object, Check | null>();

function checkFor(schema: Record<string, unknown>): Check | null {
  let check = checks.get(schema);
  if (check === undefined) {
    try {
      validator ??= new (
        require('@modelcontextprotocol/sdk/validation/ajv') as typeof import('@modelcontextprotocol/sdk/validation/ajv')
      ).AjvJsonSchemaValidator();
      check = validator.getValidator(schema) as Check;
    } catch {
      // A schema ajv cannot compile is the server's business: it validates on its side.
      check = null;
    }
    checks.set(schema, check);
  }
  return check;
}

/**
 * Checks an arguments object against the tool's input schema. Resolves `undefined` when it
 * fits, else one sentence naming what is wrong and what the tool takes.
 */
export function schemaMismatch(displayName: string, tool: McpToolInfo, args: Record<string, unknown>) {
  const check = checkFor(tool.inputSchema);
  if (!check) return undefined;
  const result = check(args);
  if (result.valid) return undefined;
  const problems = (result.errorMessage ?? 'they do not match')
    .replace(/\bdata\/([^\s,]+)/g, (_, path: string) => path.replaceAll('/', '.'))
    .replace(/\bdata\b/g, 'the arguments');
  return `The arguments do not fit MCP tool "${displayName}": ${problems}. It takes ${describeParameters(tool.inputSchema)}.`;
}
