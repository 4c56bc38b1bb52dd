import type { RawCall } from './candidate.js';
import {
  argumentFromArgs,
  callsFromJsonText,
  findJsonEnd,
  jsonEndFinder,
  leadingJson,
  rawCall,
} from './json-values.js';
import type { CallRecogniser, FoundCalls } from './recogniser.js';
import { isRecord, tryParse } from './values.js';

/**
 * Arguments written as JSON when they are JSON, else as the text they are; undefined when they
 * were cut off: JSON that never closes, or (the call's end marker not written: `ended` false)
 * nothing or text, which may have gone on.
 */
function jsonOrText(text: string, ended: boolean): unknown {
  const trimmed = text.trim();
  if (/^[[{]/.test(trimmed)) return leadingJson(trimmed);
  return ended ? trimmed : undefined;
}

/** True when a match stopped before the end of the reply: a marker after it ended the call. */
const endedBefore = (match: RegExpExecArray) => match.index + match[0].length < match.input.length;

/** A call, or none when its arguments were cut off (undefined). */
const callOf = (name: string, args: unknown): RawCall[] => (args === undefined ? [] : rawCall(name, args));

// DeepSeek's markers use fullwidth bars and `▁`; distilled models also write `_`, a space, or
// markdown's escaped `\_`; some servers print the bars as ASCII `|`.
const DS = (word: string) => `<[｜|]${word.replace(/ /g, '(?:[▁_ ]|\\\\_)')}[｜|]>`;
const DS_SEP = DS('tool sep');
const DS_CALL = new RegExp(
  `(?:${DS('tool call begin')}|${DS('tool calls begin')}|${DS('tool calls')})\\s*([^<｜|]*?)\\s*${DS_SEP}([\\s\\S]*?)(?=${DS('tool call end')}|${DS('tool call begin')}|${DS('tool calls end')}|$)`,
  'g',
);

/**
 * DeepSeek: R1 and V3 write `function<｜tool▁sep｜>NAME` then a fenced JSON block; V3.1 writes
 * `NAME<｜tool▁sep｜>{json}`.
 */
function readDeepSeekCall(kind: string, rest: string, ended: boolean): RawCall[] {
  if (kind === 'function') {
    const newline = rest.indexOf('\n');
    const name = (newline < 0 ? rest : rest.slice(0, newline)).trim();
    const body = newline < 0 ? '' : rest.slice(newline + 1).replace(/^\s*```(?:json)?/, '');
    const args = body.trim() === '' ? (ended ? {} : undefined) : jsonOrText(body, ended);
    return isRecord(args) ? rawCall(name, args) : [];
  }
  return callOf(kind, jsonOrText(rest, ended));
}

/**
 * The whole objects of a list whose end never came (`[{…}, {…}` and the reply stops): each object
 * closed is a call whose arguments are all there, and so is a last object that lacks only its own
 * `}` (its arguments closed, then the reply stops); one cut off inside its arguments is not read.
 */
function wholeItems(text: string): unknown[] {
  const items: unknown[] = [];
  const open = text.search(/\S/);
  if (text[open] !== '[') return items;
  const endOf = jsonEndFinder(text);
  let index = open + 1;
  for (;;) {
    while (/[\s,]/.test(text[index] ?? '')) index++;
    if (text[index] !== '{') return items;
    const end = endOf(index);
    const rest = text.slice(index).trimEnd();
    const item =
      end < 0 ? (rest.endsWith('}') ? tryParse(`${rest}}`) : undefined) : tryParse(text.slice(index, end));
    if (item === undefined) return items;
    if (end < 0) return [...items, item];
    items.push(item);
    index = end;
  }
}

/** Kimi K2's call: a name (`functions.NAME:0`, `NAME:0`) or only the counter (`0`), then JSON. */
function readKimiCall(name: string, body: string, ended: boolean): RawCall[] {
  if (!/^\d+$/.test(name)) return callOf(name, jsonOrText(body, ended));
  const args = leadingJson(body);
  return isRecord(args) ? [{ name: '', ...argumentFromArgs(args), nameFromArguments: true }] : [];
}

/** Apertus: `[{"NAME": {args}}, …]`, one key per object; a list left open keeps its whole objects. */
function readApertus(text: string): RawCall[] {
  const value = leadingJson(text);
  const items = Array.isArray(value) ? value : value === undefined ? wholeItems(text) : [value];
  return items.flatMap((item) => {
    if (!isRecord(item)) return [];
    const entries = Object.entries(item);
    const [first] = entries;
    return entries.length === 1 && first ? rawCall(first[0], first[1]) : [];
  });
}

/**
 * Mistral's `NAME[ARGS]{json}` (or `NAME[CALL_ID]id[ARGS]{json}`, or v11's `NAME{json}` with no
 * `[ARGS]`), repeated; else the older JSON list.
 */
function readMistral(body: string): RawCall[] {
  const calls: RawCall[] = [];
  const named = /\s*([A-Za-z_][\w.-]*)(?:(?:\[CALL_ID\][^[]*)?\[ARGS\]\s*|\s*(?=\{))/y;
  let index = 0;
  for (let head = named.exec(body); head; head = named.exec(body)) {
    const start = named.lastIndex;
    const end = body[start] === '{' ? findJsonEnd(body, start) : -1;
    // JSON that never closes, or nothing after [ARGS], was cut off; text there is a text argument.
    if (end < 0) {
      const text = body.slice(start).trim();
      return body[start] === '{' || text === '' ? calls : [...calls, ...rawCall(head[1] ?? '', text)];
    }
    calls.push(...rawCall(head[1] ?? '', tryParse(body.slice(start, end))));
    index = end;
    named.lastIndex = index;
  }
  return calls.length > 0 ? calls : callsFromJsonText(body, true);
}

const FIRST_FUNCTIONARY_CALL = /^\s*([A-Za-z_][\w.-]*)[ \t]*\n[ \t]*(?=\{)/;

/**
 * Functionary v3.2's first call, whose `>>>` the template's generation prompt already wrote: the
 * reply starts with `NAME`, a line break and the JSON object. Only a name offered makes it a call.
 */
function findFirstFunctionaryCall(text: string): FoundCalls[] {
  const head = FIRST_FUNCTIONARY_CALL.exec(text);
  if (!head) return [];
  const start = head[0].length;
  const end = findJsonEnd(text, start);
  const args = end < 0 ? undefined : tryParse(text.slice(start, end));
  if (!isRecord(args)) return [];
  const calls = rawCall(head[1] as string, args).map((call) => ({ ...call, knownNameOnly: true as const }));
  return [{ start: head.index, end, calls }];
}

/** Template special tokens followed by a call list or one call. */
export const MARKER_RECOGNISERS: readonly CallRecogniser[] = [
  {
    format: 'deepseek',
    markers: ['tool▁sep', 'tool_sep', 'tool sep', 'tool\\_sep'],
    pattern: DS_CALL,
    read: (match) => readDeepSeekCall((match[1] ?? '').trim(), match[2] ?? '', endedBefore(match)),
  },
  {
    // Kimi K2: <|tool_call_begin|>functions.NAME:0<|tool_call_argument_begin|>{json}<|tool_call_end|>
    format: 'kimi-k2',
    markers: ['<|tool_call_begin|>'],
    pattern:
      /<\|tool_call_begin\|>\s*(?:functions\.)?([\w.-]+?)(?::\d+)?\s*<\|tool_call_argument_begin\|>([\s\S]*?)(?=<\|tool_call_end\|>|<\|tool_call_begin\|>|<\|tool_calls_section_end\|>|$)/g,
    read: (match) => readKimiCall(match[1] ?? '', match[2] ?? '', endedBefore(match)),
  },
  {
    // Mistral: [TOOL_CALLS]NAME[ARGS]{json} (v11+) or [TOOL_CALLS][{"name": …, "arguments": …}]
    format: 'mistral',
    markers: ['[TOOL_CALLS]'],
    pattern: /\[TOOL_CALLS\]((?:(?!\[TOOL_CALLS\])[\s\S])*)/g,
    read: (match) => readMistral(match[1] ?? ''),
  },
  {
    // Command R7B: <|START_ACTION|>[{"tool_call_id": "0", "tool_name": …, "parameters": {…}}]<|END_ACTION|>
    format: 'command-r7b',
    markers: ['<|START_ACTION|>'],
    pattern: /<\|START_ACTION\|>([\s\S]*?)(?:<\|END_ACTION\|>|$)/g,
    read: (match) => callsFromJsonText(match[1] ?? '', true),
  },
  {
    // Apertus: <|tools_prefix|>[{"NAME": {args}}]<|tools_suffix|>
    format: 'apertus',
    markers: ['<|tools_prefix|>'],
    pattern: /<\|tools_prefix\|>([\s\S]*?)(?:<\|tools_suffix\|>|$)/g,
    read: (match) => readApertus(match[1] ?? ''),
  },
  {
    // Granite 3: <|tool_call|>[{"name": …, "arguments": {…}}]
    format: 'granite',
    markers: ['<|tool_call|>'],
    pattern: /<\|tool_call\|>((?:(?!<\|tool_call\|>)[\s\S])*)/g,
    read: (match) => callsFromJsonText(match[1] ?? '', true),
  },
  {
    // FireFunction v2: functools[{"name": …, "arguments": {…}}]
    format: 'firefunction',
    markers: ['functools['],
    pattern: /(?<![\w.])functools(\[[\s\S]*)/g,
    read: (match) => {
      const body = match[1] ?? '';
      const end = findJsonEnd(body, 0);
      return end < 0 ? [] : callsFromJsonText(body.slice(0, end), true);
    },
  },
  {
    // Functionary v3.2: >>>NAME\n{json} (>>>all\n is plain text)
    format: 'functionary-v3.2',
    markers: ['>>>'],
    pattern: /(?<=^|\n|[^>])>>>\s*([A-Za-z_][\w.-]*)\s*\n((?:(?!>>>)[\s\S])*)/g,
    read: (match) => {
      const name = match[1] ?? '';
      if (name === 'all') return [];
      const args = leadingJson(match[2] ?? '');
      return isRecord(args) ? rawCall(name, args) : [];
    },
  },
  {
    format: 'functionary-v3.2',
    markers: ['\n{', '\n {'],
    find: findFirstFunctionaryCall,
  },
];
