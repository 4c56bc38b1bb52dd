import type { RawCall } from './candidate.js';
import { callsFromJsonText, callsFromJsonValue, leadingJson } from './json-values.js';
import { readPythonCalls } from './python-calls.js';
import type { CallRecogniser } from './recogniser.js';

/** The calls in the one JSON value that follows a template token; none when it is not whole JSON. */
function jsonAfterToken(body: string): RawCall[] {
  const value = leadingJson(body);
  return value === undefined ? [] : callsFromJsonValue(value, true);
}

/**
 * Inkling: `<|message_model|>NAME<|content_invoke_tool_json|>{"name": NAME, "args": {…}}`. The
 * header may be left out; when it is there and names another tool than the body, the call is
 * not read: which of the two the model meant cannot be told.
 */
function readInkling(header: string | undefined, body: string): RawCall[] {
  const calls = jsonAfterToken(body);
  const named = header?.trim();
  return named && calls.some((call) => call.name !== named) ? [] : calls;
}

/** Python calls in template tokens, or the JSON calls some models write there instead. */
function readPythonOrJson(body: string): RawCall[] {
  const text = body.trim();
  return readPythonCalls(text) ?? callsFromJsonText(text, true);
}

/**
 * Families whose special token opens one call written as JSON (GigaChat 3.1, Inkling, InternLM 2)
 * or a list of Python calls (Llama 4).
 */
export const TOKEN_RECOGNISERS: readonly CallRecogniser[] = [
  {
    // GigaChat 3.1: <|function_call|>{"name": …, "arguments": {…}}
    format: 'gigachat',
    markers: ['<|function_call|>'],
    pattern: /<\|function_call\|>((?:(?!<\|function_call\|>)[\s\S])*)/g,
    read: (match) => jsonAfterToken(match[1] ?? ''),
  },
  {
    format: 'inkling',
    markers: ['<|content_invoke_tool_json|>'],
    pattern:
      /(?:<\|message_model\|>([^<\n]*))?<\|content_invoke_tool_json\|>((?:(?!<\|message_model\|>|<\|content_invoke_tool_json\|>)[\s\S])*)/g,
    read: (match) => readInkling(match[1], match[2] ?? ''),
  },
  {
    // InternLM 2: <|action_start|><|plugin|>{"name": …, "parameters": {…}}<|action_end|>
    format: 'internlm',
    markers: ['<|plugin|>'],
    pattern: /<\|action_start\|>\s*<\|plugin\|>((?:(?!<\|action_start\|>)[\s\S])*?)(?:<\|action_end\|>|$)/g,
    read: (match) => jsonAfterToken(match[1] ?? ''),
  },
  {
    // Llama 4: <|python_start|>[get_weather(city='Paris'), …]<|python_end|>
    format: 'llama4-pythonic',
    markers: ['<|python_start|>'],
    pattern: /<\|python_start\|>((?:(?!<\|python_start\|>)[\s\S])*?)(?:<\|python_end\|>|$)/g,
    read: (match) => readPythonOrJson(match[1] ?? ''),
  },
];
