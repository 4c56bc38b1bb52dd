import type { ToolCallCandidate } from './candidate.js';

/** A call found in a JSON shape, with the span of the reply it came from. */
export interface JsonCallMatch {
  candidate: Omit<ToolCallCandidate, 'alone' | 'midLine'>;
  /** Start and end offsets of the text the call consumed; line parsing skips it. */
  span: [number, number];
}

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
const VALID_NAME = /^[A-Za-z][\w-]*$/;

/** Finds where the JSON value starting at `start` (`{` or `[`) ends, honouring strings; -1 if it never does. */
export function findJsonEnd(text: string, start: number): number {
  let depth = 0;
  let inString = false;
  for (let index = start; index < text.length; index++) {
    const char = text[index];
    if (inString) {
      if (char === '\\') index++;
      else if (char === '"') inString = false;
    } else if (char === '"') inString = true;
    else if (char === '{' || char === '[') depth++;
    else if (char === '}' || char === ']') {
      depth--;
      if (depth === 0) return index + 1;
    }
  }
  return -1;
}

/** `JSON.parse` that returns undefined instead of throwing. */
export function tryParse(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Turns a JSON arguments value into the tool's one text argument. */
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

/**
 * The calls a parsed JSON value describes, in the shapes local models emit:
 * `{"name", "arguments"|"parameters"}`, `{"tool", "argument"}`, OpenAI's `{"function": {...}}`,
 * `{"tool_calls": [...]}`, LangChain's `{"action", "action_input"}`, and arrays of these.
 * `wrapped` (the value came inside `<tool_call>` or similar) accepts a bare `{"name"}`.
 */
export function callsFromJsonValue(
  value: unknown,
  wrapped = false,
): Array<{ name: string; argument: string; args?: Record<string, unknown> }> {
  if (Array.isArray(value)) return value.flatMap((item) => callsFromJsonValue(item, wrapped));
  if (!isRecord(value)) return [];
  if (Array.isArray(value.tool_calls)) return callsFromJsonValue(value.tool_calls, true);
  if (isRecord(value.function)) {
    const inner = value.function;
    return callsFromJsonValue({ name: inner.name, arguments: inner.arguments ?? inner.parameters }, true);
  }
  const nameKey = NAME_KEYS.find((key) => typeof value[key] === 'string');
  const argumentKey = ARGUMENT_KEYS.find((key) => key in value);
  if (!nameKey) return [];
  const name = String(value[nameKey]).trim();
  if (!VALID_NAME.test(name)) return [];
  // A record with a "name" but no arguments is usually data ({"name": "Alice"}), not a call.
  if (!argumentKey && !wrapped && nameKey !== 'tool' && nameKey !== 'tool_name') return [];
  if (nameKey === 'action' && /^final[\s_]?answer$/i.test(name)) return [];
  return [{ name, ...argumentFromArgs(argumentKey ? value[argumentKey] : undefined) }];
}

/**
 * Parses a Python-style call: `brave_search.call(query="x")` (Llama 3.1's built-in tools) or
 * `fetch_url(url="x")`, optionally inside `print(...)` (Gemma's tool_code blocks).
 */
function pythonStyleCall(
  text: string,
): { name: string; argument: string; args?: Record<string, unknown> } | null {
  const unwrapped = text.trim().replace(/^print\(([\s\S]*)\)$/, '$1');
  const match = /^\s*([A-Za-z]\w*)(?:\.call)?\(([\s\S]*)\)\s*$/.exec(unwrapped);
  if (!match) return null;
  const args: Record<string, unknown> = {};
  for (const pair of (match[2] ?? '').matchAll(/(\w+)\s*=\s*("(?:[^"\\]|\\.)*"|'(?:[^'\\]|\\.)*')/g)) {
    const raw = pair[2] ?? '""';
    args[pair[1] ?? ''] = raw.startsWith('"') ? (tryParse(raw) ?? raw.slice(1, -1)) : raw.slice(1, -1);
  }
  return { name: match[1] ?? '', ...argumentFromArgs(args) };
}

/** Parses every JSON value in a chunk of text (one value, or several one after the other). */
function callsFromJsonText(text: string, wrapped: boolean) {
  const calls: ReturnType<typeof callsFromJsonValue> = [];
  let index = 0;
  while (index < text.length) {
    const start = text.slice(index).search(/[[{]/);
    if (start < 0) break;
    const absolute = index + start;
    const end = findJsonEnd(text, absolute);
    if (end < 0) break;
    calls.push(...callsFromJsonValue(tryParse(text.slice(absolute, end)), wrapped));
    index = end;
  }
  return calls;
}

const WRAPPERS: Array<{
  /** Text the reply must contain for the pattern to be worth running. */
  marker: string;
  pattern: RegExp;
  read: (match: RegExpExecArray) => ReturnType<typeof callsFromJsonValue>;
}> = [
  {
    // Qwen, Hermes and friends: <tool_call>{"name": ..., "arguments": ...}</tool_call>
    marker: '<',
    pattern: /<(tool_call|tool_calls|function_call)>([\s\S]*?)(?:<\/\1>|$)/gi,
    read: (match) => callsFromJsonText(match[2] ?? '', true),
  },
  {
    // Llama 3.1 custom tools: <function=NAME>{"argument": "..."}</function>
    marker: '<function=',
    pattern: /<function=([\w-]+)>([\s\S]*?)(?:<\/function>|$)/gi,
    read: (match) => {
      const body = (match[2] ?? '').trim();
      const parsed = body.startsWith('{') ? tryParse(body.slice(0, findJsonEnd(body, 0))) : body;
      return [{ name: match[1] ?? '', ...argumentFromArgs(parsed) }];
    },
  },
  {
    // Llama 3.x: <|python_tag|>{"name": ...} or <|python_tag|>brave_search.call(query="...")
    marker: '<|python_tag|>',
    pattern: /<\|python_tag\|>([^\n]*(?:\n(?!\n)[^\n]*)*)/g,
    read: (match) => {
      const body = (match[1] ?? '').replace(/<\|(eom_id|eot_id)\|>/g, '').trim();
      const call = pythonStyleCall(body);
      return call ? [call] : callsFromJsonText(body, true);
    },
  },
  {
    // Mistral: [TOOL_CALLS][{"name": ..., "arguments": ...}] or [TOOL_CALLS]NAME[ARGS]{...}
    marker: '[TOOL_CALLS]',
    pattern: /\[TOOL_CALLS\]\s*(?:([\w-]+)\[ARGS\])?([\s\S]*?)(?=\[TOOL_CALLS\]|$)/g,
    read: (match) => {
      const body = (match[2] ?? '').trim();
      if (match[1]) {
        const end = body.startsWith('{') ? findJsonEnd(body, 0) : -1;
        return [{ name: match[1], ...argumentFromArgs(end > 0 ? tryParse(body.slice(0, end)) : body) }];
      }
      return callsFromJsonText(body, true);
    },
  },
  {
    // A fenced block holding JSON (```json {...} ```), or Gemma's ```tool_code fetch_url(url="…")```
    marker: '```',
    pattern: /```[ \t]*(json|tool_call|tool_code)?[ \t]*\n([\s\S]*?)```/gi,
    read: (match) => {
      const body = (match[2] ?? '').trim();
      if (body.startsWith('{') || body.startsWith('[')) return callsFromJsonText(body, false);
      const call = match[1]?.toLowerCase() === 'tool_code' ? pythonStyleCall(body) : null;
      return call ? [call] : [];
    },
  },
];

/** Finds every call written in a JSON shape, wrapped in a template tag, a fence, or bare on its own lines. */
export function findJsonCalls(text: string): JsonCallMatch[] {
  const found: JsonCallMatch[] = [];
  const spans: Array<[number, number]> = [];
  const inSpan = (offset: number) => spans.some(([start, end]) => offset >= start && offset < end);

  for (const wrapper of WRAPPERS) {
    if (!text.includes(wrapper.marker)) continue;
    wrapper.pattern.lastIndex = 0;
    for (let match = wrapper.pattern.exec(text); match; match = wrapper.pattern.exec(text)) {
      if (match[0].length === 0) {
        wrapper.pattern.lastIndex++;
        continue;
      }
      if (inSpan(match.index)) continue;
      const calls = wrapper.read(match);
      if (calls.length === 0) continue;
      const span: [number, number] = [match.index, match.index + match[0].length];
      spans.push(span);
      for (const call of calls)
        found.push({ candidate: { ...call, source: 'json', index: match.index }, span });
    }
  }

  // Bare JSON that starts a line: {"name": "FETCH_URL", "arguments": {...}}
  if (!text.includes('{')) return found;
  const lineStart = /(^|\n)[ \t]*(?:[-*]\s+)?([[{])/g;
  for (let match = lineStart.exec(text); match; match = lineStart.exec(text)) {
    const start = match.index + match[0].length - 1;
    if (inSpan(start)) continue;
    const end = findJsonEnd(text, start);
    if (end < 0) continue;
    const calls = callsFromJsonValue(tryParse(text.slice(start, end)));
    if (calls.length === 0) continue;
    spans.push([start, end]);
    for (const call of calls)
      found.push({ candidate: { ...call, source: 'json', index: start }, span: [start, end] });
    lineStart.lastIndex = end;
  }
  return found;
}
