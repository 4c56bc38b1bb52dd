import type { ToolCall } from '../types.js';
import { RESERVED_NAMES, type ToolCallCandidate } from './candidate.js';
import { blankExamples } from './examples.js';
import { findLineCalls } from './line-calls.js';
import { blankQuotedRegions, stripThinking } from './quoted-regions.js';
import { findReactCalls } from './react-calls.js';
import { candidateBySchema } from './schema-values.js';
import { SpanSet } from './span-set.js';
import {
  type CallSpans,
  findCallSpans,
  findStructuredCalls,
  hasCallMarker,
  type StructuredCallOptions,
} from './structured-calls.js';
import {
  looseKey,
  nameFromArguments,
  type ToolSyntax,
  type ToolSyntaxTable,
  toolSyntaxTable,
} from './tool-syntax.js';

const UPPER_NAME = /^[A-Z][A-Z0-9_]+$/;

/**
 * The tools a parse is given: names, or tools (a core `Tool` fits) with their argument hints and
 * their JSON Schemas (`{ name, parameters }`).
 */
export type ToolSpecs = readonly (string | ToolSyntax)[];

/** True when `text` holds something besides spaces and fence markers between the spans. */
function hasTextOutside(text: string, spans: ReadonlyArray<[number, number]>): boolean {
  let from = 0;
  for (const [start, end] of [...spans].sort((a, b) => a[0] - b[0])) {
    if (
      start > from &&
      text
        .slice(from, start)
        .replace(/```\w*/g, '')
        .trim() !== ''
    )
      return true;
    from = Math.max(from, end);
  }
  return (
    text
      .slice(from)
      .replace(/```\w*/g, '')
      .trim() !== ''
  );
}

/** True when a region in `starts` opens after the first `<`, `[`, `{` or `(` of `text`. */
function opensAfterCallMarkup(text: string, starts: readonly number[]): boolean {
  const opening = text.search(/[<[{(]/);
  return opening >= 0 && starts.some((start) => start > opening);
}

/**
 * Every call-like thing in a reply, in the order written, names as written. The agent uses this
 * to tell the model about tools that do not exist; most callers want {@link parseToolCalls}.
 */
export function findToolCallCandidates(text: string, tools: ToolSpecs = []): ToolCallCandidate[] {
  // Every call shape needs one of these characters; many plain answers have none.
  if (!/[:{[(<>]/.test(text)) return [];
  const table = toolSyntaxTable(tools);
  if (isPlainProse(text)) return findLineCalls(text, NOWHERE, table).sort(byIndex);
  return candidatesFromEveryStage(text, table);
}

/**
 * The candidates every stage of the parser finds: reasoning stripped, quotes and examples
 * blanked, structured calls, ReAct blocks, then `NAME: argument` lines. Exported for the test
 * that a plain-prose reply's line pass alone finds the same.
 */
export function candidatesFromEveryStage(text: string, table: ToolSyntaxTable): ToolCallCandidate[] {
  const visible = stripThinking(text);
  // Blanked regions' starts, to ask afterwards whether any lies inside a call's own text.
  const starts: number[] = [];
  const record = (offset: number) => starts.push(offset) < 0;
  let cleaned = blankQuotedRegions(visible, record);
  let shown = blankExamples(cleaned, record);
  let written: CallSpans | undefined;
  // Every call's text starts at or after one of `<[{(`: a region opening before the first of
  // them lies inside no call, and most quotes and examples open there.
  if (shown !== visible && opensAfterCallMarkup(visible, starts)) {
    written = findCallSpans(visible, table.knowsAsWritten, starts);
    if (starts.some(written.inCall)) {
      // A quote, fence or backtick opened inside an argument: blank again, leaving calls' text.
      cleaned = blankQuotedRegions(visible, written.inCall);
      shown = blankExamples(cleaned, written.inCall);
    }
  }
  const options: StructuredCallOptions = {
    knows: table.knows,
    knowsAsWritten: table.knowsAsWritten,
    raw: visible,
    shown,
  };
  if (written) options.written = written.matches;
  const structured = findStructuredCalls(cleaned, options);
  const taken = new SpanSet();
  const spans: Array<[number, number]> = [];
  for (const { span } of structured) {
    if (taken.has(span[0])) continue;
    taken.add(span[0], span[1]);
    spans.push(span);
  }
  const react = findReactCalls(cleaned, (offset) => taken.has(offset), visible, table);
  for (const { span } of react) taken.add(span[0], span[1]);
  const alone = !hasTextOutside(cleaned, spans);
  const candidates: ToolCallCandidate[] = [];
  for (const { candidate } of structured) {
    if (!candidate.nameFromArguments) {
      candidates.push({ ...candidate, alone, midLine: false });
      continue;
    }
    const { nameFromArguments: _, ...named } = candidate;
    const name = nameFromArguments(candidate.args ?? {}, table);
    if (name !== undefined) candidates.push({ ...named, name, alone, midLine: false });
  }
  // Concatenated, not spread: a reply may hold more candidates than a call takes arguments.
  const lines = findLineCalls(cleaned, (offset) => taken.has(offset), table);
  return candidates
    .concat(
      react.flatMap((match) => match.candidates),
      lines,
    )
    .sort(byIndex);
}

const byIndex = (a: ToolCallCandidate, b: ToolCallCandidate) => a.index - b.index;
const NOWHERE = (_offset: number) => false;

/**
 * Prose in which only `NAME: argument` lines can be calls, and nothing is blanked around them:
 * no JSON (`{`), no inline code or fence (`` ` ``), no marker of a call format (tags, `[TOOL_CALLS]`,
 * a parenthesis…), no ReAct step (`Action`), no reasoning and no quoted paragraph. For such a
 * reply every other stage finds nothing and changes nothing, so the parse is the line pass alone
 * (most final answers are such prose, and the stages' code is cold by then). Exported for the
 * test that the two agree.
 */
export function isPlainProse(text: string): boolean {
  return (
    !/[{`]|action/i.test(text) &&
    !hasCallMarker(text) &&
    stripThinking(text) === text &&
    blankQuotedRegions(text) === text
  );
}

/**
 * Matches a candidate's name against the known tools: case-insensitively for lines, loosely
 * for JSON and ReAct (`fetch-url`, `Fetch URL`). A protocol name (`FINAL_ANSWER`, `RECOMMEND`)
 * is never a call unless a tool of that name was offered and called in a structured shape.
 * Without `toolNames`, a line needs an
 * `UPPER_CASE` name as written, JSON names are upper-cased, and a ReAct name is upper-cased but
 * needs an argument. Returns null when the candidate is not a call.
 */
export function resolveToolName(candidate: ToolCallCandidate, tools?: ToolSpecs): string | null {
  const toolNames = tools?.map((tool) => (typeof tool === 'string' ? tool : tool.name));
  const canonical = candidate.name.toUpperCase().replace(/-/g, '_');
  // A protocol name (`FINAL_ANSWER`) never shadows a tool the user offers by that name: a
  // structured call of it is that tool's; a `FINAL_ANSWER:` line stays the protocol's answer.
  const reserved = RESERVED_NAMES.has(canonical.replace(/\s+/g, '_'));
  if (reserved && (candidate.source !== 'json' || !toolNames)) return null;
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
 * The candidate as the tool `tool` (its resolved name) reads it: typed by the tool's schema when
 * one was given (see `ToolSyntax.parameters`), else as written.
 */
export function typedCandidate(
  candidate: ToolCallCandidate,
  tool: string,
  tools?: ToolSpecs,
): ToolCallCandidate {
  const schema = tools ? toolSyntaxTable(tools).schema(tool) : undefined;
  return schema ? candidateBySchema(candidate, tool, schema) : candidate;
}

/**
 * Finds every tool call in a model's reply, in the order written, in any format a model family
 * writes — no template or model name needed: the format is recognised from the text.
 *
 * Reads `TOOL_NAME: <argument>` lines — tolerating markdown (bold, backticks, bullets,
 * numbering, headings), prose before the line, `Action:` labels and `RECOMMEND:` prefixes — the
 * ReAct two-line form (`Action: GET_PAGE` then `Action Input: https://…`; nothing after an
 * `Observation:` that follows it is another ReAct call), JSON shapes (`{"name", "arguments"}`,
 * fenced or bare), and every chat template's call markup: Hermes/Qwen `<tool_call>`, Qwen3-Coder
 * and Seed-OSS `<function=…><parameter=…>`, GLM `<arg_key>`, gpt-oss harmony, DeepSeek
 * R1/V3/V3.1/V3.2, Kimi K2, Mistral `[TOOL_CALLS]`, Gemma `call:NAME{…}`, LFM2 and OLMo 3
 * Python calls, MiniMax `<invoke>`, Nemotron `<TOOLCALL>`, Command R7B actions, Apertus,
 * Granite, Functionary, FireFunction and Llama 3.x (see docs/agent.md for the table).
 *
 * A call that came with an object (JSON, XML parameters, `key=value`) carries it in `arguments`,
 * values typed; `argument` is the bare text of a one-value call, else the object's JSON. Lines
 * inside quoted tool output, reasoning (`<think>`, harmony's analysis channel, `[THINK]`…),
 * inline code and markup introduced as an example are never calls.
 *
 * @param tools when given, only these names are recognised (case-insensitively, returned as
 *   given), and each tool's `argumentHints` say how its text argument is read: `endsAtSemicolon`
 *   cuts at the first `;`, `url` keeps the first word without trailing punctuation. Without
 *   hints, an argument ends at a `;` followed by another `NAME:` call, and a lone URL loses the
 *   punctuation after it. Without a list, any `UPPER_CASE_NAME: argument` line counts (except `RECOMMEND`).
 *   A tool given with its `parameters` (JSON Schema) has its calls' values typed by it (`"3"` for
 *   an integer is 3, `'true'` for a boolean is true), positional Python values named in the
 *   schema's order, and a call that does not fit the schema's shape comes back with `problem`.
 *   Python calls (`[f(a=1)]`, `f(a=1)` on a line of its own) count only for names in the list.
 * @example
 * parseToolCalls('Let me look.\n\n**GET_PAGE: https://example.com**', ['GET_PAGE']);
 * // [{ tool: 'GET_PAGE', argument: 'https://example.com' }]
 * parseToolCalls('<tool_call>\n<function=lookup>\n<parameter=city>\nLisbon\n</parameter>\n</function>\n</tool_call>', ['lookup']);
 * // [{ tool: 'lookup', argument: 'Lisbon', arguments: { city: 'Lisbon' } }]
 * parseToolCalls('[get_weather("Paris", days="3")]', [
 *   { name: 'get_weather', parameters: { type: 'object', properties: { city: { type: 'string' }, days: { type: 'integer' } } } },
 * ]);
 * // [{ tool: 'get_weather', argument: 'Paris', arguments: { city: 'Paris', days: 3 } }]
 */
export function parseToolCalls(text: string, tools?: ToolSpecs): ToolCall[] {
  const calls: ToolCall[] = [];
  for (const found of findToolCallCandidates(text, tools)) {
    const tool = resolveToolName(found, tools);
    if (!tool) continue;
    const candidate = typedCandidate(found, tool, tools);
    const call: ToolCall = { tool, argument: candidate.argument };
    if (candidate.args) call.arguments = candidate.args;
    if (candidate.problem !== undefined) call.problem = candidate.problem;
    calls.push(call);
  }
  return calls;
}

/**
 * The first tool call in a reply, or null when it has none. See {@link parseToolCalls}.
 *
 * @example
 * parseToolCall('FIND_DOCS: weather in Lisbon; GET_PAGE: https://x.test', ['FIND_DOCS', 'GET_PAGE']);
 * // { tool: 'FIND_DOCS', argument: 'weather in Lisbon' }
 */
export function parseToolCall(text: string, tools?: ToolSpecs): ToolCall | null {
  return parseToolCalls(text, tools)[0] ?? null;
}
