import type { ToolCall } from '../types.js';
import { RESERVED_NAMES, type ToolCallCandidate } from './candidate.js';
import { findJsonCalls } from './json-calls.js';
import { findLineCalls } from './line-calls.js';
import { removeQuotedRegions, stripThinking } from './quoted-regions.js';
import { findReactCalls } from './react-calls.js';

const UPPER_NAME = /^[A-Z][A-Z0-9_]+$/;

/** A name compared loosely: `fetch-url`, `fetchUrl` and `FETCH_URL` are the same tool. */
function looseKey(name: string): string {
  return name.toLowerCase().replace(/[^a-z0-9]/g, '');
}

/**
 * Every call-like thing in a reply, in the order written, names as written. The agent uses this
 * to tell the model about tools that do not exist; most callers want {@link parseToolCalls}.
 */
export function findToolCallCandidates(
  text: string,
  knownNames: readonly string[] = [],
): ToolCallCandidate[] {
  // Every call shape needs one of these characters; many plain answers have none.
  if (!/[:{[(<]/.test(text)) return [];
  const visible = stripThinking(text);
  const cleaned = removeQuotedRegions(visible);
  const json = findJsonCalls(cleaned);
  const spans = json.map((match) => match.span);
  const inSpan = (list: Array<[number, number]>, offset: number) =>
    list.some(([start, end]) => offset >= start && offset < end);
  const react = findReactCalls(cleaned, (offset) => inSpan(spans, offset), visible);
  const reactSpans = react.map((match) => match.span);
  const skip = (offset: number) => inSpan(spans, offset) || inSpan(reactSpans, offset);
  let outside = cleaned;
  for (const [start, end] of [...spans].sort((a, b) => b[0] - a[0])) {
    outside = outside.slice(0, start) + outside.slice(end);
  }
  const jsonAlone = outside.replace(/```\w*/g, '').trim() === '';
  const candidates: ToolCallCandidate[] = [
    ...json.map((match) => ({ ...match.candidate, alone: jsonAlone, midLine: false })),
    ...react.flatMap((match) => match.candidates),
    ...findLineCalls(cleaned, skip, knownNames),
  ];
  return candidates.sort((a, b) => a.index - b.index);
}

/**
 * Matches a candidate's name against the known tools: case-insensitively for lines, loosely
 * for JSON and ReAct (`fetch-url`, `Fetch URL`). Without `toolNames`, a line needs an
 * `UPPER_CASE` name as written, JSON names are upper-cased, and a ReAct name is upper-cased but
 * needs an argument. Returns null when the candidate is not a call.
 */
export function resolveToolName(candidate: ToolCallCandidate, toolNames?: readonly string[]): string | null {
  const canonical = candidate.name.toUpperCase().replace(/-/g, '_');
  if (RESERVED_NAMES.has(canonical.replace(/\s+/g, '_'))) return null;
  if (toolNames) {
    const known =
      candidate.source === 'line'
        ? toolNames.find((name) => name.toUpperCase() === candidate.name.toUpperCase())
        : toolNames.find((name) => looseKey(name) === looseKey(candidate.name));
    return known ?? null;
  }
  if (candidate.source === 'json') return canonical;
  if (candidate.source === 'react') {
    return UPPER_NAME.test(canonical) && candidate.argument !== '' ? canonical : null;
  }
  if (candidate.midLine || !UPPER_NAME.test(candidate.name) || candidate.argument === '') return null;
  return candidate.name;
}

/**
 * Finds every tool call in a model's reply, in the order written.
 *
 * Reads `TOOL_NAME: <argument>` lines — tolerating markdown (bold, backticks, bullets,
 * numbering, headings), prose before the line, `Action:` labels and `RECOMMEND:` prefixes — and
 * the JSON shapes local models emit instead (`{"name", "arguments"}`, `<tool_call>…</tool_call>`,
 * fenced JSON, `[TOOL_CALLS]`, `<|python_tag|>`, `<function=…>`), and the ReAct two-line form
 * (`Action: FETCH_URL` then `Action Input: https://…`; nothing after an `Observation:` that
 * follows it is another ReAct call). FETCH_URL and BRAVE_SEARCH
 * arguments end at the first `;` (what follows may be the next call). Lines inside quoted tool
 * output (`<tool_output>` envelopes, blockquotes, "Observation:" paragraphs) and `<think>` blocks
 * are never calls.
 *
 * @param toolNames when given, only these names are recognised (case-insensitively, returned as
 *   given); without it, any `UPPER_CASE_NAME: argument` line (except `RECOMMEND`).
 * @example
 * parseToolCalls('Let me look.\n\n**FETCH_URL: https://example.com**', ['FETCH_URL']);
 * // [{ tool: 'FETCH_URL', argument: 'https://example.com' }]
 */
export function parseToolCalls(text: string, toolNames?: readonly string[]): ToolCall[] {
  const calls: ToolCall[] = [];
  for (const candidate of findToolCallCandidates(text, toolNames)) {
    const tool = resolveToolName(candidate, toolNames);
    if (tool) calls.push({ tool, argument: candidate.argument });
  }
  return calls;
}

/**
 * The first tool call in a reply, or null when it has none. See {@link parseToolCalls}.
 *
 * @example
 * parseToolCall('BRAVE_SEARCH: weather in Lisbon; FETCH_URL: https://x.test');
 * // { tool: 'BRAVE_SEARCH', argument: 'weather in Lisbon' }
 */
export function parseToolCall(text: string, toolNames?: readonly string[]): ToolCall | null {
  return parseToolCalls(text, toolNames)[0] ?? null;
}
