import type { ArgumentHints } from '../types.js';
import type { JsonSchema } from '../util/json-schema.js';

/**
 * What the parser needs to know about a tool: its name and how its text argument is read.
 * A core `Tool` fits; so does a bare name.
 */
export interface ToolSyntax {
  name: string;
  argumentHints?: ArgumentHints;
  /**
   * The tool's JSON Schema for its arguments (an object schema). When given, a call's values are
   * typed by it, positional values take its parameters' names, and a call that does not fit its
   * shape carries a `problem`.
   */
  parameters?: JsonSchema;
}

/** The tools a parse call was given, as names and a hint lookup. */
export interface ToolSyntaxTable {
  /** The names as given, in order; empty when no list was given. */
  names: readonly string[];
  /** The hints declared for a name (matched case-insensitively, `-` and spaces read as `_`). */
  hints(name: string): ArgumentHints | undefined;
  /** True when `name` is one of the names given, compared loosely (`get-page` is `GET_PAGE`). */
  knows(name: string): boolean;
  /**
   * True when `name` is one of the names given as a model would write it in code: case, `.`, `-`
   * and `_` forgiven for one another, nothing dropped (`get_coordinate` is not `get_co-ordinate`).
   */
  knowsAsWritten(name: string): boolean;
  /** The schema declared for a name exactly as given; undefined without one. */
  schema(name: string): JsonSchema | undefined;
}

const NO_HINTS: ToolSyntaxTable = {
  names: [],
  hints: () => undefined,
  knows: () => false,
  knowsAsWritten: () => false,
  schema: () => undefined,
};

/** A name compared loosely: `get-page`, `getPage` and `GET_PAGE` are the same tool. */
export function looseKey(name: string): string {
  return name.toLowerCase().replace(/[^a-z0-9]/g, '');
}

/** A name as code writes it: `Math.Hypot`, `math-hypot` and `math_hypot` are one; `mathhypot` is not. */
export function writtenKey(name: string): string {
  return name.toLowerCase().replace(/[.-]/g, '_');
}

/** The canonical key a name is looked up by: `Get Page`, `get-page` and `GET_PAGE` are one. */
export function hintKey(name: string): string {
  return name.toUpperCase().replace(/[\s-]+/g, '_');
}

const tables = new WeakMap<readonly (string | ToolSyntax)[], ToolSyntaxTable>();

/**
 * Turns the parser's tool list (names, or tools with hints) into a lookup table, built once per
 * list: an agent passes the same list for every reply.
 */
export function toolSyntaxTable(tools: readonly (string | ToolSyntax)[] = []): ToolSyntaxTable {
  if (tools.length === 0) return NO_HINTS;
  let table = tables.get(tools);
  if (!table) {
    table = buildTable(tools);
    tables.set(tools, table);
  }
  return table;
}

function buildTable(tools: readonly (string | ToolSyntax)[]): ToolSyntaxTable {
  const names: string[] = [];
  const byKey = new Map<string, ArgumentHints>();
  const loose = new Set<string>();
  const written = new Set<string>();
  const schemas = new Map<string, JsonSchema>();
  for (const tool of tools) {
    const name = typeof tool === 'string' ? tool : tool.name;
    names.push(name);
    loose.add(looseKey(name));
    written.add(writtenKey(name));
    if (typeof tool !== 'string' && tool.argumentHints) byKey.set(hintKey(name), tool.argumentHints);
    if (typeof tool !== 'string' && tool.parameters) schemas.set(name, tool.parameters);
  }
  return {
    names,
    hints: (name) => byKey.get(hintKey(name)),
    knows: (name) => loose.has(looseKey(name)),
    knowsAsWritten: (name) => written.has(writtenKey(name)),
    schema: (name) => schemas.get(name),
  };
}

/**
 * The tool a call that names none means, told by its arguments: the one tool offered whose
 * schema has every key the call gives and needs none it leaves out, else, when only one tool was
 * offered, that tool; undefined when the arguments fit none or several.
 */
export function nameFromArguments(args: Record<string, unknown>, table: ToolSyntaxTable): string | undefined {
  const keys = Object.keys(args);
  const fitting = table.names.filter((name) => {
    const schema = table.schema(name);
    const properties = schema?.properties;
    if (typeof properties !== 'object' || properties === null) return false;
    const required = Array.isArray(schema?.required) ? (schema.required as unknown[]) : [];
    return keys.every((key) => key in properties) && required.every((key) => keys.includes(String(key)));
  });
  if (fitting.length === 1) return fitting[0];
  return table.names.length === 1 ? table.names[0] : undefined;
}
