import { createRequire } from 'node:module';
import type { Ajv, ValidateFunction } from 'ajv';
import type { Tool } from '../types.js';
import type { JsonSchema } from '../util/json-schema.js';

// One validator per schema object: tools keep their schema, so each is compiled once.
const compiled = new WeakMap<JsonSchema, ValidateFunction | Error>();
// ajv is required, and made, at the first schema to check: a process whose tools take no
// structured arguments never holds it.
const require = createRequire(import.meta.url);
let made: Ajv | undefined;
function ajv(): Ajv {
  // Not strict: servers' schemas carry keywords and formats ajv does not know; they are ignored.
  made ??= new (require('ajv') as typeof import('ajv')).Ajv({
    strict: false,
    allErrors: false,
    logger: false,
    validateFormats: false,
  });
  return made;
}

function validator(schema: JsonSchema): ValidateFunction | Error {
  let found = compiled.get(schema);
  if (!found) {
    try {
      found = ajv().compile(schema);
    } catch (error) {
      found = error instanceof Error ? error : new Error(String(error));
    }
    compiled.set(schema, found);
  }
  return found;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** The one property a bare text argument fills: the only required one, or the only one. */
function soleProperty(schema: JsonSchema): string | undefined {
  const properties = isRecord(schema.properties) ? Object.keys(schema.properties) : [];
  const required = Array.isArray(schema.required)
    ? schema.required.filter((key) => typeof key === 'string')
    : [];
  if (required.length === 1) return required[0];
  return properties.length === 1 ? properties[0] : undefined;
}

/** The object a text call means: JSON written as the argument, or the text as the tool's one property. */
function fromText(argument: string, schema: JsonSchema): Record<string, unknown> | undefined {
  const text = argument.trim();
  if (text.startsWith('{')) {
    try {
      const parsed: unknown = JSON.parse(text);
      if (isRecord(parsed)) return parsed;
    } catch {
      // Not JSON: maybe the text is the one value.
    }
  }
  const property = soleProperty(schema);
  return property !== undefined && text !== '' ? { [property]: argument } : undefined;
}

/** What a call gives a tool that declares `parameters`: the checked object, or why it does not fit. */
export type ToolArguments = { arguments?: Record<string, unknown> } | { problem: string };

/**
 * The arguments object for `tool`, checked against its `parameters`. A tool without `parameters`
 * gets none. An object the model wrote is used as it is, and refused with ajv's reason when it
 * does not fit. A text call becomes an object when it is JSON or the tool has one property and
 * the result fits; otherwise it runs with its text only (the tool reads it itself).
 */
export function toolArguments(
  tool: Tool,
  call: { argument: string; arguments?: Record<string, unknown> | undefined },
): ToolArguments {
  const schema = tool.parameters;
  if (schema === undefined) return {};
  const written = call.arguments;
  const object = written ?? fromText(call.argument, schema);
  if (object === undefined) return {};
  const validate = validator(schema);
  if (validate instanceof Error) return { arguments: object };
  if (validate(object)) return { arguments: object };
  // Only an object the model wrote is refused; a text call that makes no valid object (the
  // text protocol's own grammar, `PLANNER: add … | …`) runs with its text, which the tool reads.
  if (written === undefined) return {};
  const first = validate.errors?.[0];
  const where = first?.instancePath ? `${first.instancePath.slice(1).replace(/\//g, '.')} ` : '';
  const reason = first ? `${where}${first.message ?? 'is not valid'}` : 'they do not fit its parameters';
  return { problem: `Not run: the arguments for ${tool.name} do not fit its parameters (${reason}).` };
}
