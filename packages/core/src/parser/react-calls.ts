import type { ToolCallCandidate } from './candidate.js';
import { argumentFromArgs, findJsonEnd } from './json-values.js';
import {
  braceCounter,
  cleanLine,
  findLine,
  LEADING_MARKUP,
  type Line,
  matchCallLine,
  splitLines,
  splitSemicolonCalls,
} from './line-calls.js';
import { isQuoteLabel } from './quoted-regions.js';
import { type ToolSyntaxTable, toolSyntaxTable } from './tool-syntax.js';
import { tryParse } from './values.js';

/** A ReAct call and the span of the reply its lines take. */
export interface ReactCallMatch {
  /** The call (`source: 'react'`), then any call a `;` in its argument started (see `endsAtSemicolon`). */
  candidates: ToolCallCandidate[];
  /** Start and end offsets from the `Action:` line to the end of the input; line parsing skips it. */
  span: [number, number];
}

const ACTION = /^[*_`]{0,2}action[*_`]{0,2}\s*:[*_`]{0,2}\s*(.*)$/i;
const ACTION_INPUT = /^[*_`]{0,2}action[ _-]?input[*_`]{0,2}\s*:[*_`]{0,2}\s*(.*)$/i;
/** A tool name as a model writes it in ReAct: `GET_PAGE`, `get-page`, `Get Page` (at most four words). */
const ACTION_NAME = /^[A-Za-z][\w-]*(?: [\w-]+){0,3}$/;
/** What a ReAct model writes as its "action" when it means to answer. */
const NOT_AN_ACTION = /^(?:final[ _-]?answer|none|null|no[ _-]?action|nothing)$/i;
const FENCE = /^\s*```/;

const SCRATCHPAD = /^[*_`]{0,2}(?:thought|question)[*_`]{0,2}\s*:/i;

/** True for a ReAct scratchpad line (`Thought:`, `Question:`), which is never part of an answer. */
export function isScratchpadLine(line: string): boolean {
  return SCRATCHPAD.test(bare(line));
}

/** A line without bullets, numbering or headings. */
function bare(line: string): string {
  return line.trim().replace(LEADING_MARKUP, '').trim();
}

/** The tool named by an `Action:` line, or null when the line is not one (or names no tool). */
function actionName(line: string): string | null {
  const match = ACTION.exec(bare(line));
  if (!match) return null;
  const name = (match[1] ?? '').replace(/^[*_`"'\s]+|[*_`"'.\s]+$/g, '');
  return ACTION_NAME.test(name) && !NOT_AN_ACTION.test(name) ? name : null;
}

/** Strips one pair of matching quotes; a JSON string literal is decoded (its escapes too). */
function unquote(text: string): string {
  if (text.startsWith('"')) {
    const decoded = tryParse(text);
    if (typeof decoded === 'string') return decoded;
  }
  const pairs: Array<[string, string]> = [
    ['"', '"'],
    ["'", "'"],
    ['“', '”'],
  ];
  for (const [open, close] of pairs) {
    const inner = text.slice(1, -1);
    if (text.length >= 2 && text.startsWith(open) && text.endsWith(close) && !inner.includes(close)) {
      return inner.trim();
    }
  }
  return text;
}

/** A JSON object input, mapped the way the JSON shapes map their arguments; null when it is text. */
function jsonInput(text: string): { argument: string; args?: Record<string, unknown> } | null {
  if (!text.startsWith('{')) return null;
  const end = findJsonEnd(text, 0);
  if (end < 0 || !/^[\s.]*$/.test(text.slice(end))) return null;
  const parsed = tryParse(text.slice(0, end));
  return parsed === undefined ? null : argumentFromArgs(parsed);
}

/** Reads the `Action Input:` that follows line `from` (blank lines allowed); null when there is none. */
function readInput(
  lines: Line[],
  visible: Line[],
  from: number,
  usable: (index: number) => boolean,
  skipped: (index: number) => boolean,
): { raw: string; end: number; fenced?: true } | 'call-line' | null {
  let index = from + 1;
  while (index < lines.length && (visible[index]?.text.trim() ?? '') === '') index++;
  if (index >= lines.length || !usable(index)) return null;
  const text = lines[index]?.text ?? '';
  const match = ACTION_INPUT.exec(bare(text));
  if (!match) return matchCallLine(cleanLine(text)) ? 'call-line' : null;
  let raw = (match[1] ?? '').trim();
  let end = index;
  if (raw === '') {
    // The input on the lines below: a fenced block (code) or a JSON object.
    let next = end + 1;
    while (next < lines.length && (visible[next]?.text.trim() ?? '') === '') next++;
    const first = lines[next]?.text ?? '';
    if (next < lines.length && FENCE.test(first) && !skipped(next)) {
      const close = findLine(lines, next + 1, (line) => FENCE.test(line.text));
      end = close >= 0 ? close : lines.length - 1;
      raw = lines
        .slice(next + 1, close >= 0 ? end : lines.length)
        .map((line) => line.text)
        .join('\n');
      return { raw, end, fenced: true };
    }
    if (next < lines.length && usable(next) && first.trim().startsWith('{')) {
      raw = first.trim();
      end = next;
    }
  }
  const counter = braceCounter();
  let balance = counter.add(raw);
  while (balance > 0 && end + 1 < lines.length && usable(end + 1)) {
    end++;
    const next = `\n${lines[end]?.text ?? ''}`;
    raw += next;
    balance = counter.add(next);
  }
  return { raw: raw.trim(), end };
}

/**
 * Finds ReAct/LangChain calls: an `Action: TOOL` line and the `Action Input: argument` line under
 * it (blank lines between are fine; markdown and lower-case labels too). The input may be text
 * (cleaned like any text call's argument, one pair of quotes stripped), a JSON object (mapped like
 * the JSON shapes' arguments), or a fenced block. Without an input line the argument is empty.
 *
 * `cleaned` has quoted regions blanked; `visible` is the same text before blanking (same lines),
 * read for the `Observation:` that ends the calls: what a model writes after it imagined a tool's
 * result is not a call. Lines for which `skip` is true belong to structured calls. `tools` carries
 * the argument hints (see `splitSemicolonCalls`).
 */
export function findReactCalls(
  cleaned: string,
  skip: (offset: number) => boolean,
  visible: string = cleaned,
  tools: ToolSyntaxTable = toolSyntaxTable(),
): ReactCallMatch[] {
  if (!/action/i.test(cleaned)) return [];
  const lines = splitLines(cleaned);
  let shown = splitLines(visible);
  if (shown.length !== lines.length) shown = lines;
  const skipped = (index: number) => skip(lines[index]?.offset ?? 0);
  const usable = (index: number) => {
    const text = lines[index]?.text ?? '';
    return !skipped(index) && text.trim() !== '' && !FENCE.test(text);
  };
  const found: ReactCallMatch[] = [];
  for (let index = 0; index < lines.length; index++) {
    if (found.length > 0 && isQuoteLabel(shown[index]?.text ?? '')) break;
    if (!usable(index)) continue;
    const line = lines[index] as Line;
    const name = actionName(line.text);
    if (!name) continue;
    const input = readInput(lines, shown, index, usable, skipped);
    if (input === 'call-line') continue;
    const end = input?.end ?? index;
    const json = input ? jsonInput(input.raw) : null;
    const [call, ...more] = json
      ? [{ name, ...json, source: 'react' as const, index: line.offset, alone: false, midLine: false }]
      : splitSemicolonCalls(
          name,
          input?.fenced ? input.raw : unquote(input?.raw ?? ''),
          line.offset,
          false,
          false,
          tools,
        );
    const last = lines[end] as Line;
    if (!call) continue;
    found.push({
      candidates: [{ ...call, source: 'react' }, ...more],
      span: [line.offset, last.offset + last.text.length],
    });
    index = end;
  }
  const onlyBlock = found.length === 1 && found[0];
  if (onlyBlock) {
    const [start, end] = onlyBlock.span;
    const other = lines.some(
      (line, at) => usable(at) && (line.offset < start || line.offset >= end) && !isScratchpadLine(line.text),
    );
    const [first] = onlyBlock.candidates;
    if (first) first.alone = !other;
  }
  return found;
}
