import type { RawCall, StructuredCallMatch } from './candidate.js';
import { isIntroducedAsExample } from './examples.js';
import { callsFromJsonText, callsFromJsonValue, jsonEndFinder } from './json-values.js';
import { readPythonCalls } from './python-calls.js';
import type { SpanSet } from './span-set.js';
import { tryParse } from './values.js';

const FENCE = /```[ \t]*(json|tool_call|tool_code)?[ \t]*\n([\s\S]*?)```/gi;

/**
 * JSON calls in a fenced block (```` ```json {...} ``` ````, or Gemma's ```` ```tool_code ````
 * `get_page(url="…")`), and bare JSON that starts a line: `{"name": "GET_PAGE", "arguments": {...}}`.
 * `taken` holds the offsets earlier readers consumed; the calls found here are added to it.
 */
export function findJsonShapes(text: string, taken: SpanSet): StructuredCallMatch[] {
  const found: StructuredCallMatch[] = [];
  const inSpan = (offset: number) => taken.has(offset);
  const add = (calls: RawCall[], start: number, end: number, format: string) => {
    if (calls.length === 0 || isIntroducedAsExample(text, start)) return;
    taken.add(start, end);
    for (const call of calls)
      found.push({ candidate: { ...call, source: 'json', format, index: start }, span: [start, end] });
  };

  if (text.includes('```')) {
    FENCE.lastIndex = 0;
    for (let match = FENCE.exec(text); match; match = FENCE.exec(text)) {
      if (inSpan(match.index)) continue;
      const body = (match[2] ?? '').trim();
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
  const endOf = jsonEndFinder(text);
  const lineStart = /(^|\n)[ \t]*(?:[-*]\s+)?([[{])/g;
  for (let match = lineStart.exec(text); match; match = lineStart.exec(text)) {
    const start = match.index + match[0].length - 1;
    if (inSpan(start)) continue;
    const end = endOf(start);
    if (end < 0) continue;
    const calls = callsFromJsonValue(tryParse(text.slice(start, end)));
    if (calls.length === 0) continue;
    add(calls, start, end, 'json');
    lineStart.lastIndex = end;
  }
  return found;
}
