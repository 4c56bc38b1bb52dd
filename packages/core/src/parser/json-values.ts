import type { RawCall } from './candidate.js';
import { isRecord, tryParse } from './values.js';

const NAME_KEYS = ['name', 'tool', 'tool_name', 'function', 'action'] as const;
const ARGUMENT_KEYS = ['arguments', 'parameters', 'args', 'input', 'tool_input', 'action_input', 'argument'];
const PREFERRED_KEYS = [
  'argument',
  'url',
  'query',
  'q',
  'search_query',
  'command',
  'cmd',
  'code',
  'script',
  'input',
];
const VALID_NAME = /^[A-Za-z][\w.-]*$/;
/** Keys of a call's own shape, never a function's name in `{"NAME": {args}}`. */
const RESERVED_KEYS: ReadonlySet<string> = new Set([
  ...NAME_KEYS,
  ...ARGUMENT_KEYS,
  'tool_calls',
  'properties',
]);

/**
 * A finder of JSON value ends over one text. Every bracket it passes is remembered, so asking
 * for many starts in the same text costs one pass in all (hostile replies with thousands of
 * unclosed `{` stay linear). A raw newline inside a string ends the scan: JSON has none.
 */
export function jsonEndFinder(text: string): (start: number) => number {
  const known = new Map<number, number>();
  const scan = (start: number): number => {
    const stack: number[] = [];
    let inString = false;
    for (let index = start; index < text.length; index++) {
      const char = text[index];
      if (inString) {
        if (char === '\\') index++;
        else if (char === '"') inString = false;
        else if (char === '\n') break;
      } else if (char === '"') inString = true;
      else if (char === '{' || char === '[') stack.push(index);
      else if (char === '}' || char === ']') {
        const open = stack.pop();
        if (open === undefined) return -1;
        known.set(open, index + 1);
        if (stack.length === 0) return index + 1;
      }
    }
    for (const open of stack) known.set(open, -1);
    return -1;
  };
  return (start) => known.get(start) ?? scan(start);
}

/** Finds where the JSON value starting at `start` (`{` or `[`) ends, honouring strings; -1 if it never does. */
export function findJsonEnd(text: string, start: number): number {
  return jsonEndFinder(text)(start);
}

/** The JSON value at the start of `text` (after spaces), or undefined when none is whole there. */
export function leadingJson(text: string): unknown {
  const start = text.search(/\S/);
  if (start < 0 || (text[start] !== '{' && text[start] !== '[')) return undefined;
  const end = findJsonEnd(text, start);
  return end < 0 ? undefined : tryParse(text.slice(start, end));
}

/** True for an object schema (`{"type": "object", "properties": …}`): a tool's definition, not a call's arguments. */
function isObjectSchema(value: unknown): boolean {
  return isRecord(value) && value.type === 'object' && isRecord(value.properties);
}

/**
 * Turns an arguments value into the tool's one text argument: the bare text of a one-value call
 * (a preferred key such as `url` or `query` first), else the object's JSON. The object comes back as `args`.
 */
export function argumentFromArgs(args: unknown): { argument: string; args?: Record<string, unknown> } {
  if (args === undefined || args === null) return { argument: '' };
  if (typeof args === 'string') {
    const parsed = args.trim().startsWith('{') ? tryParse(args) : undefined;
    return isRecord(parsed) ? argumentFromArgs(parsed) : { argument: args };
  }
  if (!isRecord(args)) return { argument: String(args) };
  for (const key of PREFERRED_KEYS) {
    const value = args[key];
    if (typeof value === 'string' || typeof value === 'number') return { argument: String(value), args };
  }
  const entries = Object.entries(args);
  if (entries.length === 0) return { argument: '', args };
  const only = entries.length === 1 ? entries[0]?.[1] : undefined;
  if (typeof only === 'string' || typeof only === 'number') return { argument: String(only), args };
  return { argument: JSON.stringify(args), args };
}

/** A call from a name and an arguments value, or none when the name is not a name. */
export function rawCall(name: string, args: unknown): RawCall[] {
  const trimmed = name.trim();
  return VALID_NAME.test(trimmed) ? [{ name: trimmed, ...argumentFromArgs(args) }] : [];
}

/**
 * The calls that stand: a call that only its name makes one (`knownNameOnly`) counts when the
 * name is offered, and loses the flag, which was for this choice only.
 */
export function keepCalls(calls: RawCall[], knows: (name: string) => boolean): RawCall[] {
  if (!calls.some((call) => call.knownNameOnly)) return calls;
  return calls.flatMap(({ knownNameOnly, ...call }) => (!knownNameOnly || knows(call.name) ? [call] : []));
}

/**
 * `{"NAME": {args}}`: an object with one key, the function's name, holding the arguments. Inside
 * a template's call tags it is a call; bare, only when the name is offered (`knownNameOnly`).
 */
function keyedCall(value: Record<string, unknown>, wrapped: boolean): RawCall[] {
  const keys = Object.keys(value);
  const [name] = keys;
  if (keys.length !== 1 || name === undefined || RESERVED_KEYS.has(name)) return [];
  const args = value[name];
  if (!isRecord(args) || isObjectSchema(args)) return [];
  const calls = rawCall(name, args);
  return wrapped ? calls : calls.map((call) => ({ ...call, knownNameOnly: true as const }));
}

/**
 * The calls a parsed JSON value describes, in the shapes local models emit:
 * `{"name", "arguments"|"parameters"}`, `{"tool", "argument"}`, OpenAI's `{"function": {...}}`,
 * `{"tool_calls": [...]}`, LangChain's `{"action", "action_input"}`, Command R's
 * `{"tool_name", "parameters"}`, `{"NAME": {args}}` (see `keyedCall`), and arrays of these. `wrapped` (the value came inside
 * `<tool_call>` or similar) accepts a bare `{"name"}`. A tool definition (arguments that are an
 * object schema) is not a call.
 */
export function callsFromJsonValue(value: unknown, wrapped = false): RawCall[] {
  if (Array.isArray(value)) return value.flatMap((item) => callsFromJsonValue(item, wrapped));
  if (!isRecord(value)) return [];
  if (Array.isArray(value.tool_calls)) return callsFromJsonValue(value.tool_calls, true);
  if (isRecord(value.function)) {
    const inner = value.function;
    return callsFromJsonValue({ name: inner.name, arguments: inner.arguments ?? inner.parameters }, true);
  }
  const nameKey = NAME_KEYS.find((key) => typeof value[key] === 'string');
  const argumentKey = ARGUMENT_KEYS.find((key) => key in value);
  if (!nameKey) return keyedCall(value, wrapped);
  const name = String(value[nameKey]).trim();
  if (!VALID_NAME.test(name)) return [];
  // A record with a "name" but no arguments is usually data ({"name": "Alice"}), not a call.
  if (!argumentKey && !wrapped && nameKey !== 'tool' && nameKey !== 'tool_name') return [];
  if (nameKey === 'action' && /^final[\s_]?answer$/i.test(name)) return [];
  const args = argumentKey ? value[argumentKey] : undefined;
  if (isObjectSchema(args)) return [];
  return rawCall(name, args);
}

/**
 * Parses every JSON value in a chunk of text: one value, several one after the other, or a list
 * whose items lack the commas between them (Command R7B writes such action lists) or whose end
 * never came, read item by item.
 */
export function callsFromJsonText(text: string, wrapped: boolean): RawCall[] {
  const calls: RawCall[] = [];
  const endOf = jsonEndFinder(text);
  let index = 0;
  const opener = /[[{]/g;
  while (index < text.length) {
    opener.lastIndex = index;
    const found = opener.exec(text);
    if (!found) break;
    const absolute = found.index;
    const end = endOf(absolute);
    const value = end < 0 ? undefined : tryParse(text.slice(absolute, end));
    // A list of objects that is not JSON, or never closes, is read from inside, item by item: its
    // whole objects are calls, one cut off is not (one level only, so nested lists never make
    // the reading quadratic).
    if (
      value === undefined &&
      text[absolute] === '[' &&
      /^\[\s*\{/.test(text.slice(absolute, absolute + 200))
    ) {
      index = absolute + 1;
      continue;
    }
    if (end < 0) break;
    calls.push(...callsFromJsonValue(value, wrapped));
    index = end;
  }
  return calls;
}
