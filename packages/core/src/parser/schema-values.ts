import type { JsonSchema } from '../util/json-schema.js';
import type { ToolCallCandidate } from './candidate.js';
import { argumentFromArgs } from './json-values.js';
import { isRecord, tryParse, writtenValues } from './values.js';

const INTEGER = /^[-+]?\d+$/;
const NUMBER = /^[-+]?(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?$/;

/** The types a schema allows: `type` as a word or a list; none when it says nothing. */
function typesOf(schema: unknown): string[] {
  if (!isRecord(schema)) return [];
  const { type } = schema;
  if (typeof type === 'string') return [type];
  return Array.isArray(type) ? type.filter((item): item is string => typeof item === 'string') : [];
}

/** True when `value` already has `type`. */
function hasType(value: unknown, type: string): boolean {
  switch (type) {
    case 'integer':
      return typeof value === 'number' && Number.isInteger(value);
    case 'number':
      return typeof value === 'number';
    case 'boolean':
      return typeof value === 'boolean';
    case 'string':
      return typeof value === 'string';
    case 'array':
      return Array.isArray(value);
    case 'object':
      return isRecord(value);
    case 'null':
      return value === null;
    default:
      return true;
  }
}

/** `value` read as `type` when its text means one (`"3"` as an integer is 3); undefined when it does not. */
function convert(value: unknown, type: string): unknown {
  const text = typeof value === 'string' ? value.trim() : undefined;
  switch (type) {
    case 'integer':
      return text !== undefined && INTEGER.test(text) ? Number(text) : undefined;
    case 'number':
      return text !== undefined && NUMBER.test(text) ? Number(text) : undefined;
    case 'boolean':
      return text === undefined
        ? undefined
        : ({ true: true, false: false } as Record<string, boolean>)[text.toLowerCase()];
    case 'string':
      return typeof value === 'number' || typeof value === 'boolean' ? String(value) : undefined;
    case 'array':
    case 'object': {
      const parsed = text !== undefined && /^[[{]/.test(text) ? tryParse(text) : undefined;
      return parsed !== undefined && hasType(parsed, type) ? parsed : undefined;
    }
    case 'null':
      return text === 'null' || text === 'None' ? null : undefined;
    default:
      return undefined;
  }
}

/**
 * One item of a list or object typed by its schema: the text it was written as (see
 * `writtenValues`) where the schema wants a string and the typed value fits none of its types —
 * `3.0`, `null` and `true` written for a string are those words — else typed by the schema.
 */
function typedItem(item: unknown, schema: unknown, written: string | undefined, depth: number): unknown {
  if (written !== undefined) {
    const types = typesOf(schema);
    if (types.includes('string') && !types.some((type) => hasType(item, type))) return written;
  }
  return typeBySchema(item, schema, depth + 1);
}

/**
 * A value typed by its schema: kept when it already fits, else converted to the first type it can
 * be read as; items of arrays and properties of objects are typed by their own schemas. A value
 * that fits no type stays as written, for the tool's validation to refuse with its reason.
 */
export function typeBySchema(value: unknown, schema: unknown, depth = 0): unknown {
  if (!isRecord(schema) || depth > 16) return value;
  const types = typesOf(schema);
  let typed = value;
  if (types.length > 0 && !types.some((type) => hasType(value, type))) {
    for (const type of types) {
      const converted = convert(value, type);
      if (converted !== undefined) {
        typed = converted;
        break;
      }
    }
  }
  const written = typeof typed === 'object' && typed !== null ? writtenValues(typed) : undefined;
  // Containers are copied only when an item changes: a call that fits stays the same object.
  if (Array.isArray(typed) && schema.items !== undefined) {
    const items = typed.map((item, index) => typedItem(item, schema.items, written?.[index], depth));
    return items.some((item, index) => item !== typed[index]) ? items : typed;
  }
  if (isRecord(typed) && isRecord(schema.properties)) {
    const properties = schema.properties;
    let copy: Record<string, unknown> | undefined;
    for (const key of Object.keys(typed)) {
      const item = typedItem(typed[key], properties[key], written?.[key], depth);
      if (item !== typed[key]) {
        copy ??= { ...typed };
        copy[key] = item;
      }
    }
    return copy ?? typed;
  }
  return typed;
}

/** What a call's object becomes under its tool's schema, and what is wrong with it, if anything. */
export interface SchemaReading {
  args: Record<string, unknown>;
  problem?: string;
}

const quoted = (names: readonly string[]) => names.map((name) => `"${name}"`).join(', ');

/**
 * Reads a call's arguments by its tool's object schema: positional values take the parameters'
 * names in the schema's order, every value is typed ({@link typeBySchema}), and a parameter the
 * schema does not have, a required one missing or more positional values than parameters become
 * one sentence in `problem` (the call is kept, for the agent to answer the model with it).
 */
export function readBySchema(
  tool: string,
  args: Record<string, unknown>,
  positional: readonly unknown[],
  schema: JsonSchema,
): SchemaReading {
  const properties = isRecord(schema.properties) ? schema.properties : {};
  const names = Object.keys(properties);
  const named: Record<string, unknown> = {};
  positional.forEach((value, index) => {
    const name = names[index];
    if (name !== undefined) named[name] = value;
  });
  const object = positional.length > 0 ? { ...named, ...args } : args;
  const typed = typeBySchema(
    object,
    schema.type === 'object' ? schema : { ...schema, type: 'object' },
  ) as Record<string, unknown>;
  if (positional.length > names.length)
    return { args: typed, problem: `${tool} takes ${names.length} arguments, not ${positional.length}.` };
  const open = schema.additionalProperties === true || isRecord(schema.additionalProperties);
  const unknown =
    open || !isRecord(schema.properties) ? [] : Object.keys(typed).filter((key) => !(key in properties));
  if (unknown.length > 0) {
    const offered = names.length > 0 ? `; its parameters are ${quoted(names)}` : '';
    return { args: typed, problem: `${tool} has no parameter ${quoted(unknown)}${offered}.` };
  }
  const required = Array.isArray(schema.required)
    ? schema.required.filter((key) => typeof key === 'string')
    : [];
  const missing = required.filter((key) => !(key in typed));
  if (missing.length > 0)
    return { args: typed, problem: `${tool} needs ${quoted(missing)}, which the call left out.` };
  return { args: typed };
}

/**
 * A candidate read by its tool's schema, when the call wrote an object or positional values (a
 * `NAME: text` line is left for the tool to read). `argument` follows the typed object.
 */
export function candidateBySchema(
  candidate: ToolCallCandidate,
  tool: string,
  schema: JsonSchema,
): ToolCallCandidate {
  if (!candidate.args && !candidate.positional) return candidate;
  const reading = readBySchema(tool, candidate.args ?? {}, candidate.positional ?? [], schema);
  if (reading.args === candidate.args && reading.problem === undefined) return candidate;
  const { argument, args } = argumentFromArgs(reading.args);
  const typed: ToolCallCandidate = { ...candidate, argument, args: args ?? reading.args };
  if (reading.problem !== undefined) typed.problem = reading.problem;
  return typed;
}
