import type { RawCall, StructuredCallMatch } from './candidate.js';
import { blankExamples, isIntroducedAsExample } from './examples.js';
import { HARMONY_RECOGNISER } from './harmony-calls.js';
import { findJsonShapes } from './json-shapes.js';
import { jsonEndFinder, keepCalls } from './json-values.js';
import { MARKER_RECOGNISERS } from './marker-calls.js';
import { PYTHON_RECOGNISERS } from './python-calls.js';
import { PYTHON_LINE_RECOGNISER } from './python-lines.js';
import type { CallRecogniser, FoundCalls } from './recogniser.js';
import { coveredBy, SpanSet } from './span-set.js';
import { TOKEN_RECOGNISERS } from './token-calls.js';
import { XML_RECOGNISERS } from './xml-calls.js';

/**
 * Every format reader, most specific first: a span one reader took is skipped by the next
 * (DeepSeek's DSML before the plain `<invoke>` reader, `<seed:tool_call>` before `<tool_call>`…).
 */
export const CALL_RECOGNISERS: readonly CallRecogniser[] = [
  HARMONY_RECOGNISER,
  ...MARKER_RECOGNISERS,
  ...TOKEN_RECOGNISERS,
  ...XML_RECOGNISERS,
  ...PYTHON_RECOGNISERS,
  PYTHON_LINE_RECOGNISER,
];

/** Any recogniser's marker: one scan tells a plain answer from one that may hold markup. */
const ANY_MARKER = new RegExp(
  CALL_RECOGNISERS.flatMap((recogniser) => recogniser.markers)
    .map((marker) => marker.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'))
    .join('|'),
);

/** True when `text` holds a marker of some call format (`<tool_call>`, `[TOOL_CALLS]`, `(`…). */
export function hasCallMarker(text: string): boolean {
  return ANY_MARKER.test(text);
}

/** The recognisers whose markers `text` holds, in their order. */
function recognisersIn(text: string): CallRecogniser[] {
  if (!ANY_MARKER.test(text)) return [];
  return CALL_RECOGNISERS.filter((recogniser) => recogniser.markers.some((marker) => text.includes(marker)));
}

/** Runs one recogniser over the text; `skip` says a match starting there is no call (it retries past it). */
function run(
  recogniser: CallRecogniser,
  text: string,
  knows: (name: string) => boolean,
  skip?: (offset: number) => boolean,
): FoundCalls[] {
  if ('find' in recogniser) return recogniser.find(text, knows);
  const found: FoundCalls[] = [];
  const { pattern } = recogniser;
  pattern.lastIndex = 0;
  for (let match = pattern.exec(text); match; match = pattern.exec(text)) {
    if (match[0].length === 0 || skip?.(match.index + startOffset(text, match.index))) {
      // Past the first character only: a real call may start inside what was skipped.
      pattern.lastIndex = match.index + 1;
      continue;
    }
    found.push({ start: match.index, end: match.index + match[0].length, calls: recogniser.read(match) });
  }
  return found;
}

/** Where a reply's calls are, and what each format found there (see {@link findCallSpans}). */
export interface CallSpans {
  /** True when an offset lies inside a call's own text. */
  inCall: (offset: number) => boolean;
  /** Each format's matches over the reply as written, for the reading that follows. */
  matches: ReadonlyMap<CallRecogniser, FoundCalls[]>;
}

/**
 * Where the reply's calls are, read as written, before anything is blanked: every format's
 * matches that hold a call, and every JSON object (when a region in `starts` opens after one).
 * Blanking asks it, so a fence, a backtick, a `>` or an `Observation:` inside an argument's text
 * is never taken for markdown or a quote.
 */
export function findCallSpans(
  text: string,
  knows: (name: string) => boolean,
  starts: readonly number[] = [],
): CallSpans {
  const spans: Array<[number, number]> = [];
  const matches = new Map<CallRecogniser, FoundCalls[]>();
  for (const recogniser of recognisersIn(text)) {
    const found = run(recogniser, text, knows);
    matches.set(recogniser, found);
    for (const match of found) if (match.calls.length > 0) spans.push([match.start, match.end]);
  }
  // JSON objects matter only to a region opening after the first of them.
  const firstObject = text.search(/\{\s*"/);
  const endOf = jsonEndFinder(text);
  if (firstObject >= 0 && starts.some((start) => start > firstObject))
    for (const match of text.matchAll(/\{\s*"/g)) {
      const end = endOf(match.index);
      if (end > 0) spans.push([match.index, end]);
    }
  return { inCall: coveredBy(spans), matches };
}

/** No name is a tool offered: the default when none were given. */
const KNOWS_NONE = (_name: string) => false;

/** How {@link findStructuredCalls} reads a reply; every field has a default. */
export interface StructuredCallOptions {
  /** True when a name is one of the tools offered (loosely); none by default. */
  knows?: (name: string) => boolean;
  /** The stricter test for a name written in code (Python calls); `knows` by default. */
  knowsAsWritten?: (name: string) => boolean;
  /** The reply with its quoted regions, offset for offset: where calls are read. */
  raw?: string;
  /** The reply with examples blanked too, when the caller has it: where calls may start. */
  shown?: string;
  /** Each format's matches over `raw`, when the caller has them (see {@link findCallSpans}). */
  written?: ReadonlyMap<CallRecogniser, FoundCalls[]>;
}

/**
 * Every call written in a structured shape: a chat template's tags or special tokens (Hermes,
 * Qwen3-Coder, GLM, DeepSeek, Kimi K2, gpt-oss harmony, Mistral, Gemma, LFM2, OLMo 3, MiniMax,
 * Seed-OSS, Nemotron, Command R7B, Apertus, Granite, Functionary, FireFunction, Llama), a fenced
 * JSON block, or bare JSON on its own lines. `text` must already be without reasoning and quoted
 * output (blanked, offsets kept); `options.raw` is the same reply with them, where calls are read:
 * blanking decides where a call may start, never what its values are. Markup in inline code, in
 * a fence of a programming language, or introduced as an example ("the format is …") is not a
 * call. A shape that only a name makes a call (`{"get_weather": {…}}`) needs `options.knows`.
 */
export function findStructuredCalls(
  text: string,
  options: StructuredCallOptions = {},
): StructuredCallMatch[] {
  const knows = options.knows ?? KNOWS_NONE;
  const knowsAsWritten = options.knowsAsWritten ?? knows;
  const taken = new SpanSet();
  const found: StructuredCallMatch[] = [];
  const shown = options.shown ?? blankExamples(text);
  const raw = options.raw ?? text;
  const source = raw.length === shown.length ? raw : shown;
  const blanked = shown === source ? undefined : (offset: number) => shown[offset] !== source[offset];
  const add = (calls: RawCall[], start: number, end: number, format: string) => {
    taken.add(start, end);
    for (const call of calls)
      found.push({ candidate: { ...call, source: 'json', format, index: start }, span: [start, end] });
  };
  for (const recogniser of recognisersIn(shown)) {
    const written = source === raw ? options.written?.get(recogniser) : undefined;
    let matches: FoundCalls[];
    // Matches read from the reply as written stand when none starts in a blanked region.
    if (written && !written.some((match) => blanked?.(match.start + startOffset(source, match.start))))
      matches = written;
    else if ('find' in recogniser)
      matches = pairedWithRaw(recogniser, shown, source, knowsAsWritten, written);
    else matches = run(recogniser, source, knowsAsWritten, blanked);
    for (const match of matches) {
      const calls = keepCalls(match.calls, knows);
      if (calls.length === 0 || taken.overlaps(match.start, match.end)) continue;
      if (isIntroducedAsExample(shown, match.start)) continue;
      add(calls, match.start, match.end, recogniser.format);
    }
  }
  found.push(...findJsonShapes(shown, taken, knows, source));
  return found.sort((a, b) => a.span[0] - b.span[0]);
}

/**
 * A scanning recogniser's matches over `shown`, each read from `raw` when the recogniser finds a
 * match at the same offset there.
 */
function pairedWithRaw(
  recogniser: CallRecogniser,
  shown: string,
  raw: string,
  knows: (name: string) => boolean,
  written?: FoundCalls[],
): FoundCalls[] {
  const matches = run(recogniser, shown, knows);
  if (raw === shown || matches.length === 0) return matches;
  const byStart = new Map((written ?? run(recogniser, raw, knows)).map((match) => [match.start, match]));
  return matches.map((match) => byStart.get(match.start) ?? match);
}

/** How far past `start` a match's first character that is not a space lies. */
function startOffset(text: string, start: number): number {
  let offset = 0;
  while (/\s/.test(text[start + offset] ?? '')) offset++;
  return offset;
}
