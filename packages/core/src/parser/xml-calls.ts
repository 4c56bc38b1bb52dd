import type { RawCall } from './candidate.js';
import { callsFromJsonText, callsFromJsonValue, findJsonEnd, rawCall } from './json-values.js';
import { readPythonCalls } from './python-calls.js';
import type { CallRecogniser } from './recogniser.js';
import { isRecord, readPythonValue, tryParse, typedValue } from './values.js';

// `<function=NAME>` or `<function name="NAME">`; `<parameter=KEY>` or `<parameter name="KEY">`.
const FUNCTION_BLOCK =
  /<function(?:=|\s+name\s*=)\s*["']?([^>"'\n]+?)["']?\s*>([\s\S]*?)(?:<\/function>|(?=<function[=\s])|$)/g;
const PARAMETER =
  /<parameter(?:=|\s+name\s*=)\s*["']?([^>"'\n]+?)["']?\s*>([\s\S]*?)(?:<\/parameter>|(?=<parameter[=\s])|(?=<\/function>)|$)/g;

/**
 * `<function=NAME>` (or `<function name="NAME">`) blocks: with `<parameter=KEY>value</parameter>`
 * children (Qwen3-Coder, Nemotron 3, Seed-OSS), a JSON object (Functionary v3.1, Llama 3.1
 * custom tools, Hermes 2 Pro's attribute form), or nothing.
 */
export function readFunctionBlocks(body: string): RawCall[] {
  const calls: RawCall[] = [];
  for (const block of body.matchAll(FUNCTION_BLOCK)) {
    const name = block[1] ?? '';
    const inner = block[2] ?? '';
    if (/<parameter[=\s]/.test(inner)) {
      const args: Record<string, unknown> = {};
      for (const parameter of inner.matchAll(PARAMETER))
        args[(parameter[1] ?? '').trim()] = typedValue(parameter[2] ?? '');
      calls.push(...rawCall(name, args));
      continue;
    }
    const text = inner.trim();
    if (text === '') calls.push(...rawCall(name, {}));
    else if (text.startsWith('{')) {
      const end = findJsonEnd(text, 0);
      const parsed = end > 0 ? tryParse(text.slice(0, end)) : undefined;
      if (parsed !== undefined) calls.push(...rawCall(name, parsed));
    } else calls.push(...rawCall(name, text));
  }
  return calls;
}

const ARG_PAIR = /<arg_key>([\s\S]*?)<\/arg_key>\s*<arg_value>([\s\S]*?)(?:<\/arg_value>|$)/g;

/** GLM 4.5+: `NAME<arg_key>k</arg_key><arg_value>v</arg_value>…`. */
function readArgPairs(body: string): RawCall[] {
  const first = body.indexOf('<arg_key>');
  const name = (first < 0 ? body : body.slice(0, first)).trim();
  const args: Record<string, unknown> = {};
  for (const pair of body.matchAll(ARG_PAIR)) args[(pair[1] ?? '').trim()] = typedValue(pair[2] ?? '');
  return rawCall(name, args);
}

/**
 * A call written as a Python dict (`{'name': 'f', 'arguments': {'a': 1}}`, single quotes, `True`),
 * as Hermes 2 Pro on Mistral writes inside `<tool_call>`; one literal or several in a row.
 */
function callsFromPythonLiteral(text: string): RawCall[] {
  const calls: RawCall[] = [];
  let index = 0;
  while (index < text.length && calls.length < 64) {
    const value = readPythonValue(text, index);
    if (!value || !isRecord(value.value)) break;
    calls.push(...callsFromJsonValue(value.value, true));
    index = value.end;
    while (/[\s,]/.test(text[index] ?? '')) index++;
  }
  return calls;
}

const NAME_THEN_JSON = /^([A-Za-z_][\w.-]*)\s*(?=\{)/;

/**
 * What a `<tool_call>` holds: Hermes JSON, Qwen3-Coder `<function=…>`, GLM pairs, a name and then
 * its JSON object, or a bare name.
 */
function readToolCallBody(body: string): RawCall[] {
  if (/<function[=\s]/.test(body)) return readFunctionBlocks(body);
  if (body.includes('<arg_key>')) return readArgPairs(body);
  const text = body.trim();
  if (text.startsWith('{') || text.startsWith('[')) {
    const calls = callsFromJsonText(text, true);
    return calls.length > 0 ? calls : callsFromPythonLiteral(text);
  }
  if (/^[A-Za-z_][\w.-]*$/.test(text)) return rawCall(text, {});
  const named = NAME_THEN_JSON.exec(text);
  if (named) {
    const start = named[0].length;
    const end = findJsonEnd(text, start);
    const args = end > 0 && text.slice(end).trim() === '' ? tryParse(text.slice(start, end)) : undefined;
    if (args !== undefined) return rawCall(named[1] as string, args);
  }
  return readPythonCalls(text) ?? [];
}

const invokeCache = new Map<string, { invoke: RegExp; parameter: RegExp }>();

/** The `<invoke>` and `<parameter>` patterns for a tag prefix, compiled once. */
function invokePatterns(prefix: string): { invoke: RegExp; parameter: RegExp } {
  let patterns = invokeCache.get(prefix);
  if (!patterns) {
    patterns = {
      invoke: new RegExp(
        `<${prefix}invoke\\s+name\\s*=\\s*["']([^"'>]+)["']\\s*>([\\s\\S]*?)(?:</${prefix}invoke>|$)`,
        'g',
      ),
      parameter: new RegExp(
        `<${prefix}parameter\\s+name\\s*=\\s*["']([^"'>]+)["']([^>]*)>([\\s\\S]*?)(?:</${prefix}parameter>|$)`,
        'g',
      ),
    };
    invokeCache.set(prefix, patterns);
  }
  return patterns;
}

/**
 * `<invoke name="NAME"><parameter name="k">v</parameter></invoke>` (MiniMax M2, Anthropic-style
 * `<function_calls>`), and DeepSeek V3.2's DSML spelling, where every tag starts with `｜DSML｜`
 * and `string="true"` marks a value to keep as text.
 */
function readInvokes(body: string, prefix: string): RawCall[] {
  const { invoke, parameter } = invokePatterns(prefix);
  const calls: RawCall[] = [];
  for (const call of body.matchAll(invoke)) {
    const args: Record<string, unknown> = {};
    for (const item of (call[2] ?? '').matchAll(parameter)) {
      const raw = item[3] ?? '';
      args[item[1] ?? ''] = /string\s*=\s*["']true["']/.test(item[2] ?? '') ? raw : typedValue(raw);
    }
    calls.push(...rawCall(call[1] ?? '', args));
  }
  return calls;
}

const DSML = '｜+DSML｜+';

/** Template tags with XML-ish or JSON bodies. */
export const XML_RECOGNISERS: readonly CallRecogniser[] = [
  {
    // DeepSeek V3.2: <｜DSML｜function_calls><｜DSML｜invoke name="…">…</｜DSML｜function_calls>
    format: 'deepseek-dsml',
    markers: ['DSML｜'],
    pattern:
      /<｜+DSML｜+(?:function_calls|tool_calls)>([\s\S]*?)(?:<\/｜+DSML｜+(?:function_calls|tool_calls)>|$)/g,
    read: (match) => readInvokes(match[1] ?? '', DSML),
  },
  {
    // MiniMax M2: <minimax:tool_call><invoke name="…"><parameter name="k">v</parameter></invoke></minimax:tool_call>
    format: 'minimax',
    markers: ['<minimax:tool_call>'],
    pattern: /<minimax:tool_call>([\s\S]*?)(?:<\/minimax:tool_call>|$)/g,
    read: (match) => readInvokes(match[1] ?? '', ''),
  },
  {
    // <function_calls><invoke name="…">…</invoke></function_calls> (OLMo's Python bodies are read elsewhere)
    format: 'invoke',
    markers: ['<invoke'],
    pattern: /<function_calls>([\s\S]*?)(?:<\/function_calls>|$)/g,
    read: (match) => readInvokes(match[1] ?? '', ''),
  },
  {
    // Seed-OSS: <seed:tool_call><function=NAME><parameter=k>v</parameter></function></seed:tool_call>
    format: 'seed-oss',
    markers: ['<seed:tool_call>'],
    pattern: /<seed:tool_call>([\s\S]*?)(?:<\/seed:tool_call>|$)/g,
    read: (match) => readFunctionBlocks(match[1] ?? ''),
  },
  {
    // Hermes / Qwen JSON, Qwen3-Coder and Nemotron 3 XML, GLM pairs: all inside <tool_call>
    format: 'tool-call-tag',
    markers: ['<tool_call>', '<tool_calls>', '<function_call>', '<TOOL_CALL>'],
    pattern: /<(tool_call|tool_calls|function_call)>([\s\S]*?)(?:<\/\1>|(?=<\1>)|$)/gi,
    read: (match) => readToolCallBody(match[2] ?? ''),
  },
  {
    // Nemotron (v1/v2): <TOOLCALL>[{"name": …, "arguments": {…}}]</TOOLCALL>, also in lower case
    format: 'nemotron',
    markers: ['<TOOLCALL>', '<toolcall>', '<ToolCall>'],
    pattern: /<toolcall>([\s\S]*?)(?:<\/toolcall>|$)/gi,
    read: (match) => callsFromJsonText(match[1] ?? '', true),
  },
  {
    // A <function=NAME> or <function name="NAME"> without a wrapper: Functionary v3.1 / Llama 3.1
    // JSON, Hermes 2 Pro's attribute form, or Qwen3-Coder parameters
    format: 'function-tag',
    markers: ['<function=', '<function name'],
    pattern: /<function(?:=|\s+name\s*=)[^>\n]+>[\s\S]*?(?:<\/function>|(?=<function[=\s])|$)/g,
    read: (match) => readFunctionBlocks(match[0]),
  },
];
