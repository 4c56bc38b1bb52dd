import type { RawCall } from './candidate.js';
import { MINIMAX_M3_TOKEN, readInvokes, STEP3_RECOGNISER } from './invoke-calls.js';
import { callsFromJsonText, callsFromJsonValue, findJsonEnd, rawCall } from './json-values.js';
import { readPythonCalls } from './python-calls.js';
import type { CallRecogniser } from './recogniser.js';
import { isRecord, readPythonValue, setWrittenValue, tryParse } from './values.js';

// `<function=NAME>` or `<function name="NAME">`; `<parameter=KEY>` or `<parameter name="KEY">`
// (MiniCPM5 writes `<param name="KEY">`). A block's third group is its closing tag.
const FUNCTION_BLOCK =
  /<function(?:=|\s+name\s*=)\s*["']?([^>"'\n]+?)["']?\s*>([\s\S]*?)(?:(<\/function>)|(?=<function[=\s])|$)/g;
const PARAMETER =
  /<param(?:eter)?(?:=|\s+name\s*=)\s*["']?([^>"'\n]+?)["']?\s*>([\s\S]*?)(?:(<\/param(?:eter)?>)|(?=<param(?:eter)?[=\s])|(?=<\/function>)|$)/g;
const ANY_PARAMETER = /<param(?:eter)?[=\s>]/;
const UNNAMED_PARAMETER = /<param(?:eter)?\s*>/;

/**
 * The parameters of one `<function>` block, or null when they cannot be passed as written: a
 * value without a name, or one name given twice.
 */
function readParameters(inner: string): Record<string, unknown> | null {
  if (UNNAMED_PARAMETER.test(inner)) return null;
  const args: Record<string, unknown> = {};
  for (const parameter of inner.matchAll(PARAMETER)) {
    const key = (parameter[1] ?? '').trim();
    if (key in args) return null;
    // Qwen3-Coder's template writes `<parameter=k>` and the value on lines of their own.
    setWrittenValue(args, key, parameter[2] ?? '', parameter[0].startsWith('<parameter='));
  }
  return args;
}

/**
 * `<function=NAME>` (or `<function name="NAME">`) blocks: with `<parameter=KEY>value</parameter>`
 * children (Qwen3-Coder, Nemotron 3, Seed-OSS, MiniCPM5's `<param>`), a JSON object (Functionary
 * v3.1, Llama 3.1 custom tools, Hermes 2 Pro's attribute form), or nothing. A block of parameters
 * that the reply ends inside was cut off between its arguments: it is not a call.
 */
export function readFunctionBlocks(body: string): RawCall[] {
  const calls: RawCall[] = [];
  for (const block of body.matchAll(FUNCTION_BLOCK)) {
    const name = block[1] ?? '';
    const inner = block[2] ?? '';
    const cut = block[3] === undefined && block.index + block[0].length === body.length;
    if (ANY_PARAMETER.test(inner)) {
      const args = cut ? null : readParameters(inner);
      if (args) calls.push(...rawCall(name, args));
      continue;
    }
    const text = inner.trim();
    // Cut off, only a JSON object that closed holds all of the call's arguments.
    if (cut && !text.startsWith('{')) continue;
    if (text === '') calls.push(...rawCall(name, {}));
    else if (text.startsWith('{')) {
      const end = findJsonEnd(text, 0);
      const parsed = end > 0 ? tryParse(text.slice(0, end)) : undefined;
      if (parsed !== undefined) calls.push(...rawCall(name, parsed));
    } else calls.push(...rawCall(name, text));
  }
  return calls;
}

// A key is a word: `<arg_key>a</arg_key><arg_key>b</arg_key><arg_value>…` pairs `b` with the value.
const ARG_PAIR = /<arg_key>([^<]*)<\/arg_key>\s*<arg_value>([\s\S]*?)(?:<\/arg_value>|$)/g;

/**
 * GLM 4.5+ and Poolside: `NAME<arg_key>k</arg_key><arg_value>v</arg_value>…`; Hunyuan v3 writes
 * `<tool_sep>` after the name.
 */
function readArgPairs(body: string): RawCall[] {
  const first = body.indexOf('<arg_key>');
  const name = (first < 0 ? body : body.slice(0, first)).replace('<tool_sep>', '').trim();
  const args: Record<string, unknown> = {};
  for (const pair of body.matchAll(ARG_PAIR))
    setWrittenValue(args, (pair[1] ?? '').trim(), pair[2] ?? '', false);
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

const INNER_CALL = /<tool_call>([\s\S]*?)(?:(<\/tool_call>)|(?=<tool_call>)|$)/g;

/**
 * What a `<tool_call>` holds: Hermes JSON, Qwen3-Coder `<function=…>`, GLM, Poolside and Hunyuan
 * v3 pairs, MiniMax M3 `<invoke>`, a name and then its JSON object, or a bare name. `closed` says
 * whether the call's end was written (its closing tag, or the next call's opening): formats that
 * write one tag per argument need it, since without it the reply stopped between arguments.
 * `<tool_calls>` around `<tool_call>`s (Hunyuan v3) is read call by call.
 */
function readToolCallBody(written: string, closed: boolean): RawCall[] {
  // MiniMax M3's token before its call tags goes; the one before argument tags tells them from text.
  const body = written.includes(MINIMAX_M3_TOKEN)
    ? written.replace(/\]<\]minimax\[>\[(?=<\/?(?:invoke|tool_call)\b)/g, '')
    : written;
  if (body.includes('<tool_call>'))
    return [...body.matchAll(INNER_CALL)].flatMap((inner) =>
      readToolCallBody(inner[1] ?? '', closed || inner[2] !== undefined),
    );
  if (/<function[=\s]/.test(body)) return readFunctionBlocks(body);
  if (body.includes('<arg_key>')) return closed ? readArgPairs(body) : [];
  if (/<invoke\s/.test(body)) return readInvokes(body, '');
  const text = (
    body.includes('<tool_sep>') ? body.replace(/^(\s*[A-Za-z_][\w.-]*)\s*<tool_sep>/, '$1') : body
  ).trim();
  if (text.startsWith('{') || text.startsWith('[')) {
    const calls = callsFromJsonText(text, true);
    return calls.length > 0 ? calls : callsFromPythonLiteral(text);
  }
  // A bare name is a call without arguments only once its end was written.
  if (/^[A-Za-z_][\w.-]*$/.test(text)) return closed ? rawCall(text, {}) : [];
  const named = NAME_THEN_JSON.exec(text);
  if (named) {
    const start = named[0].length;
    const end = findJsonEnd(text, start);
    const args = end > 0 && text.slice(end).trim() === '' ? tryParse(text.slice(start, end)) : undefined;
    if (args !== undefined) return rawCall(named[1] as string, args);
  }
  return readPythonCalls(text) ?? [];
}

const DSML = '｜+DSML｜+';

/** Template tags with XML-ish or JSON bodies. */
export const XML_RECOGNISERS: readonly CallRecogniser[] = [
  STEP3_RECOGNISER,
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
    // Hermes / Qwen JSON, Qwen3-Coder and Nemotron 3 XML, GLM pairs, MiniMax M3: all inside
    // <tool_call>; LongCat's <longcat_tool_call> holds the same JSON
    format: 'tool-call-tag',
    markers: ['<tool_call>', '<tool_calls>', '<function_call>', '<TOOL_CALL>', '<longcat_tool_call>'],
    pattern: /<(tool_call|tool_calls|function_call|longcat_tool_call)>([\s\S]*?)(?:(<\/\1>)|(?=<\1>)|$)/gi,
    read: (match) =>
      readToolCallBody(
        match[2] ?? '',
        match[3] !== undefined || match.index + match[0].length < match.input.length,
      ),
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
