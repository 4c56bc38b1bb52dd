import type { RawCall, StructuredCallMatch } from './candidate.js';
import { blankExamples, isIntroducedAsExample } from './examples.js';
import { HARMONY_RECOGNISER } from './harmony-calls.js';
import { findJsonShapes } from './json-shapes.js';
import { keepCalls } from './json-values.js';
import { MARKER_RECOGNISERS } from './marker-calls.js';
import { PYTHON_RECOGNISERS } from './python-calls.js';
import { PYTHON_LINE_RECOGNISER } from './python-lines.js';
import type { CallRecogniser, FoundCalls } from './recogniser.js';
import { SpanSet } from './span-set.js';
import { XML_RECOGNISERS } from './xml-calls.js';

/**
 * Every format reader, most specific first: a span one reader took is skipped by the next
 * (DeepSeek's DSML before the plain `<invoke>` reader, `<seed:tool_call>` before `<tool_call>`…).
 */
export const CALL_RECOGNISERS: readonly CallRecogniser[] = [
  HARMONY_RECOGNISER,
  ...MARKER_RECOGNISERS,
  ...XML_RECOGNISERS,
  ...PYTHON_RECOGNISERS,
  PYTHON_LINE_RECOGNISER,
];

/** Runs one recogniser over the text. */
function run(recogniser: CallRecogniser, text: string, knows: (name: string) => boolean): FoundCalls[] {
  if ('find' in recogniser) return recogniser.find(text, knows);
  const found: FoundCalls[] = [];
  const { pattern } = recogniser;
  pattern.lastIndex = 0;
  for (let match = pattern.exec(text); match; match = pattern.exec(text)) {
    if (match[0].length === 0) {
      pattern.lastIndex++;
      continue;
    }
    found.push({ start: match.index, end: match.index + match[0].length, calls: recogniser.read(match) });
  }
  return found;
}

/**
 * Every call written in a structured shape: a chat template's tags or special tokens (Hermes,
 * Qwen3-Coder, GLM, DeepSeek, Kimi K2, gpt-oss harmony, Mistral, Gemma, LFM2, OLMo 3, MiniMax,
 * Seed-OSS, Nemotron, Command R7B, Apertus, Granite, Functionary, FireFunction, Llama), a fenced
 * JSON block, or bare JSON on its own lines. `text` must already be without reasoning and quoted
 * output. Markup in inline code, in a fence of a programming language, or introduced as an
 * example ("the format is …") is not a call. `knows` tells whether a name is one of the tools
 * offered: a shape that only a name makes a call (`{"get_weather": {…}}`) needs it;
 * `knowsAsWritten` is the stricter test for a name written in code (Python calls).
 */
export function findStructuredCalls(
  text: string,
  knows: (name: string) => boolean = () => false,
  knowsAsWritten: (name: string) => boolean = knows,
): StructuredCallMatch[] {
  const taken = new SpanSet();
  const found: StructuredCallMatch[] = [];
  const shown = blankExamples(text);
  const add = (calls: RawCall[], start: number, end: number, format: string) => {
    taken.add(start, end);
    for (const call of calls)
      found.push({ candidate: { ...call, source: 'json', format, index: start }, span: [start, end] });
  };
  for (const recogniser of CALL_RECOGNISERS) {
    if (!recogniser.markers.some((marker) => shown.includes(marker))) continue;
    for (const match of run(recogniser, shown, knowsAsWritten)) {
      const calls = keepCalls(match.calls, knows);
      if (calls.length === 0 || taken.overlaps(match.start, match.end)) continue;
      if (isIntroducedAsExample(shown, match.start)) continue;
      add(calls, match.start, match.end, recogniser.format);
    }
  }
  found.push(...findJsonShapes(shown, taken, knows));
  return found.sort((a, b) => a.span[0] - b.span[0]);
}
