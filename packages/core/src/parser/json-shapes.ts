import type { RawCall, StructuredCallMatch } from './candidate.js';
import { isIntroducedAsExample } from './examples.js';
import { callsFromJsonText, callsFromJsonValue, jsonEndFinder, keepCalls } from './json-values.js';
import { readPythonCalls } from './python-calls.js';
import type { SpanSet } from './span-set.js';
import { tryParse } from './values.js';

/** A call object's opening in the middle of a line: `{"name":` (or `"tool"`, `"function"`). */
const INLINE_CALL = /\{[ \t]*"(?:name|tool|function)"[ \t]*:/g;

/**
 * True when the `{` at `start` follows prose on its line: not at the line's start, nor right after
 * `[`, `{` or a template token's `>` (what a token opens is its format reader's to read or refuse).
 */
function afterProse(text: string, start: number): boolean {
  let before = start - 1;
  while (text[before] === ' ' || text[before] === '\t') before--;
  const char = text[before];
  return char !== undefined && char !== '\n' && char !== '\r' && char !== '[' && char !== '{' && char !== '>';
}

const FENCE = /```[ \t]*(json|tool_call|tool_code)?[ \t]*\n([\s\S]*?)```/gi;

/** What may stand between two calls written one after the other: spaces, a `;` or a `,`. */
const NEXT_OBJECT = /[ \t]*[;,]?[ \t]*\{/y;

/** The calls in one JSON value; a list of objects without commas between them (Llama 3.2) item by item. */
function callsFromJsonLine(json: string): RawCall[] {
  const value = tryParse(json);
  if (value !== undefined || !/^\[\s*\{/.test(json)) return callsFromJsonValue(value);
  return callsFromJsonText(json, false);
}

/**
 * JSON calls in a fenced block (```` ```json {...} ``` ````, or Gemma's ```` ```tool_code ````
 * `get_page(url="…")`), and bare JSON that starts a line: `{"name": "GET_PAGE", "arguments": {...}}`,
 * with the calls written right after it on the same line (`{…}{…}`, no list, no comma needed).
 * `taken` holds the offsets earlier readers consumed; the calls found here are added to it.
 * `knows` says whether a name is offered (see `keepCalls`). Shapes are found in `text` (examples
 * blanked) and read from `raw`, the same reply offset for offset, so values keep what was blanked.
 */
export function findJsonShapes(
  text: string,
  taken: SpanSet,
  knows: (name: string) => boolean = () => false,
  raw: string = text,
): StructuredCallMatch[] {
  const found: StructuredCallMatch[] = [];
  const inSpan = (offset: number) => taken.has(offset);
  const add = (all: RawCall[], start: number, end: number, format: string): boolean => {
    const calls = keepCalls(all, knows);
    if (calls.length === 0 || isIntroducedAsExample(text, start)) return false;
    taken.add(start, end);
    for (const call of calls)
      found.push({ candidate: { ...call, source: 'json', format, index: start }, span: [start, end] });
    return true;
  };

  if (text.includes('```')) {
    FENCE.lastIndex = 0;
    for (let match = FENCE.exec(text); match; match = FENCE.exec(text)) {
      if (inSpan(match.index)) continue;
      const bodyStart = match.index + match[0].length - 3 - (match[2] ?? '').length;
      const body = raw.slice(bodyStart, bodyStart + (match[2] ?? '').length).trim();
      const calls =
        body.startsWith('{') || body.startsWith('[')
          ? callsFromJsonText(body, false)
          : match[1]?.toLowerCase() === 'tool_code'
            ? (readPythonCalls(body) ?? [])
            : [];
      add(calls, match.index, match.index + match[0].length, 'fenced-json');
    }
  }

  if (!text.includes('{')) return found;
  const endOf = jsonEndFinder(raw);
  const lineStart = /(^|\n)[ \t]*(?:[-*]\s+)?([[{])/g;
  for (let match = lineStart.exec(text); match; match = lineStart.exec(text)) {
    let start = match.index + match[0].length - 1;
    while (!inSpan(start)) {
      const end = endOf(start);
      if (end < 0 || !add(callsFromJsonLine(raw.slice(start, end)), start, end, 'json')) break;
      lineStart.lastIndex = end;
      NEXT_OBJECT.lastIndex = end;
      if (!NEXT_OBJECT.test(raw)) break;
      start = NEXT_OBJECT.lastIndex - 1;
    }
  }
  // A call object in the middle of prose ("Here it is: {"name": …} Anything else?") counts
  // only for a tool offered: prose quotes JSON records too.
  INLINE_CALL.lastIndex =
    text.includes('"name"') || text.includes('"tool"') || text.includes('"function"') ? 0 : text.length;
  for (let match = INLINE_CALL.exec(text); match; match = INLINE_CALL.exec(text)) {
    const start = match.index;
    const end = inSpan(start) || !afterProse(text, start) ? -1 : endOf(start);
    if (end < 0) continue;
    const calls = callsFromJsonValue(tryParse(raw.slice(start, end))).map((call) => ({
      ...call,
      knownNameOnly: true as const,
    }));
    if (add(calls, start, end, 'json')) INLINE_CALL.lastIndex = end;
  }
  return found;
}
