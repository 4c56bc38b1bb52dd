import type { RawCall } from './candidate.js';
import { argumentFromArgs, callsFromJsonText } from './json-values.js';
import type { CallRecogniser } from './recogniser.js';
import { readGemmaValue, readPythonValue } from './values.js';

const CALL_NAME = /^\s*([A-Za-z_][\w.-]*)\s*\(/;

/** A name as written in a Python-style call, without `functions.` in front or `.call` behind. */
function bareName(name: string): string {
  return name.replace(/^functions\./, '').replace(/\.call$/, '');
}

/**
 * Reads `name(key=value, …)` at `at` (spaces before the name allowed); null when the text there is
 * not one call. Positional values are kept in `positional`, for a schema to name.
 */
export function readOneCall(text: string, at: number): { call: RawCall; end: number } | null {
  const head = CALL_NAME.exec(text.slice(at, at + 300));
  if (!head) return null;
  const args: Record<string, unknown> = {};
  const positional: unknown[] = [];
  let index = at + head[0].length;
  for (;;) {
    while (/\s/.test(text[index] ?? '')) index++;
    if (text[index] === ')') break;
    const key = /^([A-Za-z_]\w*)\s*=(?!=)/.exec(text.slice(index, index + 200));
    const value = readPythonValue(text, key ? index + key[0].length : index);
    if (!value) return null;
    if (key) args[key[1] as string] = value.value;
    else positional.push(value.value);
    index = value.end;
    while (/\s/.test(text[index] ?? '')) index++;
    if (text[index] === ',') index++;
    else if (text[index] !== ')') return null;
  }
  const name = bareName(head[1] as string);
  const only = positional.length === 1 && Object.keys(args).length === 0 ? positional[0] : undefined;
  const call: RawCall =
    typeof only === 'string' ? { name, argument: only } : { name, ...argumentFromArgs(args) };
  if (positional.length > 0) call.positional = positional;
  return { call, end: index + 1 };
}

/**
 * Reads Python-style calls: `get_page(url="https://…")`, several separated by commas, semicolons
 * or lines, optionally as a list (`[a(x=1), b(y='z')]`) or inside `print(…)`. Keyword values are
 * Python or JSON literals (`True`, `None`, lists, dicts), typed. Null when the text is anything
 * else, so prose and code that merely contain a call are not read.
 */
export function readPythonCalls(text: string): RawCall[] | null {
  let body = text.trim();
  const print = /^print\(([\s\S]*)\)$/.exec(body);
  if (print) body = (print[1] ?? '').trim();
  if (body.startsWith('[') && body.endsWith(']')) body = body.slice(1, -1);
  const calls: RawCall[] = [];
  let index = 0;
  while (index < body.length) {
    const read = readOneCall(body, index);
    if (!read) return null;
    calls.push(read.call);
    index = read.end;
    while (/[\s,;]/.test(body[index] ?? '')) index++;
  }
  return calls.length > 0 ? calls : null;
}

/** Reads Gemma's `call:NAME{key:<escape>value<escape>,…}`: the whole text must be the call. */
function readGemmaCall(text: string): RawCall[] {
  const head = /^\s*call:([A-Za-z_][\w.-]*)\s*(?=\{)/.exec(text);
  if (!head) return [];
  const value = readGemmaValue(text, head[0].length);
  if (!value || !/^\s*$/.test(text.slice(value.end))) return [];
  return [{ name: bareName(head[1] as string), ...argumentFromArgs(value.value) }];
}

/** LFM2 and OLMo 3 (Python calls in template tags), Llama's built-in tools, and Gemma's `call:` form. */
export const PYTHON_RECOGNISERS: readonly CallRecogniser[] = [
  {
    // LFM2: <|tool_call_start|>[get_page(url="…"), web_search(q='x')]<|tool_call_end|>
    format: 'lfm2',
    markers: ['<|tool_call_start|>'],
    pattern: /<\|tool_call_start\|>([\s\S]*?)(?:<\|tool_call_end\|>|$)/g,
    read: (match) => {
      const body = (match[1] ?? '').trim();
      return readPythonCalls(body) ?? callsFromJsonText(body, true);
    },
  },
  {
    // OLMo 3: <function_calls>get_page(url="…")\nweb_search(q="x")</function_calls>
    format: 'olmo3',
    markers: ['<function_calls>'],
    pattern: /<function_calls>((?:(?!<function_calls>)[\s\S])*?)(?:<\/function_calls>|$)/g,
    read: (match) => (/<invoke\b/.test(match[1] ?? '') ? [] : (readPythonCalls(match[1] ?? '') ?? [])),
  },
  {
    // Llama 3.x built-in tools: <|python_tag|>web_search.call(query="…")
    format: 'llama3-python-tag',
    markers: ['<|python_tag|>'],
    pattern: /<\|python_tag\|>([^\n]*(?:\n(?!\n)[^\n]*)*)/g,
    read: (match) => {
      const body = (match[1] ?? '').replace(/<\|(eom_id|eot_id)\|>/g, '').trim();
      return readPythonCalls(body) ?? callsFromJsonText(body, true);
    },
  },
  {
    // FunctionGemma: <start_function_call>call:NAME{k:<escape>v<escape>}<end_function_call>;
    // Gemma 4: <|tool_call>call:NAME{k:<|"|>v<|"|>}<tool_call|>.
    format: 'gemma',
    markers: ['<start_function_call>', '<|tool_call>'],
    pattern: /(?:<start_function_call>|<\|tool_call>)([\s\S]*?)(?:<end_function_call>|<tool_call\|>|$)/g,
    read: (match) => readGemmaCall(match[1] ?? ''),
  },
  {
    // The same call on a line of its own, when the template's tokens were not printed.
    format: 'gemma',
    markers: ['call:'],
    pattern: /(?<=^|\n)[ \t]*(call:[A-Za-z_][\w.-]*\{[^\n]*)/g,
    read: (match) => readGemmaCall(match[1] ?? ''),
  },
];
