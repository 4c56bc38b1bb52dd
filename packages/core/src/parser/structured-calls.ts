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

/** Runs one recogniser over the text; `skip` says a match starting there is no call (it retries past it). */
function run(
  recogniser: CallRecogniser,
  text: string,
  knows: (name: string) => boolean,
  skip: (offset: number) => boolean = () => false,
): FoundCalls[] {
  if ('find' in recogniser) return recogniser.find(text, knows);
  const found: FoundCalls[] = [];
  const { pattern } = recogniser;
  pattern.lastIndex = 0;
  for (let match = pattern.exec(text); match; match = pattern.exec(text)) {
    if (match[0].length === 0 || skip(match.index + Math.max(0, match[0].search(/\S/)))) {
      // Past the first character only: a real call may start inside what was skipped.
      pattern.lastIndex = match.index + 1;
      continue;
    }
    found.push({ start: match.index, end: match.index + match[0].length, calls: recogniser.read(match) });
  }
  return found;
}

/**
 * Where the reply's calls are, read as written, before anything is blanked: every format's
 * matches that hold a call, and every JSON object. Blanking asks it, so a fence, a backtick, a
 * `>` or an `Observation:` inside an argument's text is never taken for markdown or a quote.
 */
export function findCallSpans(text: string, knows: (name: string) => boolean): (offset: number) => boolean {
  const spans: Array<[number, number]> = [];
  for (const recogniser of CALL_RECOGNISERS) {
    if (!recogniser.markers.some((marker) => text.includes(marker))) continue;
    for (const match of run(recogniser, text, knows))
      if (match.calls.length > 0) spans.push([match.start, match.end]);
  }
  const endOf = jsonEndFinder(text);
  for (const match of text.matchAll(/\{\s*"/g)) {
    const end = endOf(match.index);
    if (end > 0) spans.push([match.index, end]);
  }
  return coveredBy(spans);
}

/**
 * Every call written in a structured shape: a chat template's tags or special tokens (Hermes,
 * Qwen3-Coder, GLM, DeepSeek, Kimi K2, gpt-oss harmony, Mistral, Gemma, LFM2, OLMo 3, MiniMax,
 * Seed-OSS, Nemotron, Command R7B, Apertus, Granite, Functionary, FireFunction, Llama), a fenced
 * JSON block, or bare JSON on its own lines. `text` must already be without reasoning and quoted
 * output (blanked, offsets kept); `raw` is the same reply with them, offset for offset, where
 * calls are read: blanking decides where a call may start, never what its values are. Markup in
 * inline code, in a fence of a programming language, or introduced as an example ("the format is
 * …") is not a call. `inCall` tells blanking where calls' own text is (see `findCallSpans`).
 * `knows` tells whether a name is one of the tools offered: a shape that only a name makes a call
 * (`{"get_weather": {…}}`) needs it; `knowsAsWritten` is the stricter test for a name written in
 * code (Python calls).
 */
export function findStructuredCalls(
  text: string,
  knows: (name: string) => boolean = () => false,
  knowsAsWritten: (name: string) => boolean = knows,
  raw: string = text,
  inCall: (offset: number) => boolean = () => false,
): StructuredCallMatch[] {
  const taken = new SpanSet();
  const found: StructuredCallMatch[] = [];
  const shown = blankExamples(text, inCall);
  const source = raw.length === shown.length ? raw : shown;
  const blanked = (offset: number) => shown[offset] !== source[offset];
  const add = (calls: RawCall[], start: number, end: number, format: string) => {
    taken.add(start, end);
    for (const call of calls)
      found.push({ candidate: { ...call, source: 'json', format, index: start }, span: [start, end] });
  };
  for (const recogniser of CALL_RECOGNISERS) {
    if (!recogniser.markers.some((marker) => shown.includes(marker))) continue;
    const matches =
      'find' in recogniser
        ? pairedWithRaw(recogniser, shown, source, knowsAsWritten)
        : run(recogniser, source, knowsAsWritten, blanked);
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
): FoundCalls[] {
  const matches = run(recogniser, shown, knows);
  if (raw === shown || matches.length === 0) return matches;
  const written = new Map(run(recogniser, raw, knows).map((match) => [match.start, match]));
  return matches.map((match) => written.get(match.start) ?? match);
}
