// Parse time per reply over the fixture corpus, against JSON.parse of the same bytes (each reply
// as a JSON string), measured in this one run; and the slowest reply.
import { parseToolCalls } from '../src/parser/parse-tool-call.js';
import { EDGE_SHAPE_NEGATIVES, EDGE_SHAPE_REPLIES } from '../test/fixtures/edge-shape-replies.js';
import { FAMILY_TOOLS } from '../test/fixtures/family-tools.js';
import { MARKER_FAMILY_REPLIES } from '../test/fixtures/marker-family-replies.js';
import { DEFAULT_FIXTURE_TOOLS, REPLY_FIXTURES } from '../test/fixtures/model-replies.js';
import { NEGATIVE_REPLIES } from '../test/fixtures/negative-replies.js';
import { OTHER_FAMILY_REPLIES } from '../test/fixtures/other-family-replies.js';
import { loadBfclCases } from '../test/fixtures/shared-corpus.js';
import { XML_FAMILY_REPLIES } from '../test/fixtures/xml-family-replies.js';

/** One reply of the corpus and the tools it is parsed with. */
interface Sample {
  name: string;
  reply: string;
  tools: Parameters<typeof parseToolCalls>[1];
}

function corpus(): Sample[] {
  const families = [
    ...XML_FAMILY_REPLIES,
    ...MARKER_FAMILY_REPLIES,
    ...OTHER_FAMILY_REPLIES,
    ...EDGE_SHAPE_REPLIES,
  ];
  return [
    ...REPLY_FIXTURES.map((fixture) => ({
      name: `${fixture.family}: ${fixture.name}`,
      reply: fixture.reply,
      tools: fixture.toolNames === null ? undefined : (fixture.toolNames ?? DEFAULT_FIXTURE_TOOLS),
    })),
    ...families.map((fixture) => ({
      name: `${fixture.family}: ${fixture.name}`,
      reply: fixture.reply,
      tools: fixture.toolNames ?? FAMILY_TOOLS,
    })),
    ...[...NEGATIVE_REPLIES, ...EDGE_SHAPE_NEGATIVES].map((fixture) => ({
      name: `negative: ${fixture.name}`,
      reply: fixture.reply,
      tools: fixture.toolNames ?? undefined,
    })),
  ];
}

/** Median of several timed rounds of `run` over every sample, in microseconds per sample. */
function timePerSample(samples: readonly Sample[], run: (sample: Sample) => unknown, rounds = 31): number {
  const times: number[] = [];
  for (let round = 0; round < rounds; round++) {
    const started = performance.now();
    for (const sample of samples) run(sample);
    times.push(((performance.now() - started) * 1000) / samples.length);
  }
  times.sort((a, b) => a - b);
  return times[Math.floor(times.length / 2)] as number;
}

/** Parser and JSON.parse timings over the fixture corpus, and the slowest reply. */
export function measureParse(): {
  replies: number;
  parserUs: number;
  jsonUs: number;
  worst: { name: string; us: number; bytes: number };
} {
  const samples = corpus();
  const encoded = samples.map((sample) => JSON.stringify(sample.reply));
  // Warm both paths so the JIT has compiled them before the timed rounds.
  for (let warm = 0; warm < 300; warm++) {
    for (const sample of samples) parseToolCalls(sample.reply, sample.tools);
    for (const text of encoded) JSON.parse(text);
  }
  const parserUs = timePerSample(samples, (sample) => parseToolCalls(sample.reply, sample.tools));
  let index = 0;
  const jsonUs = timePerSample(samples, () => JSON.parse(encoded[index++ % encoded.length] as string));
  let worst = { name: '', us: 0, bytes: 0 };
  for (const sample of samples) {
    const us = timePerSample(Array(50).fill(sample), (one) => parseToolCalls(one.reply, one.tools), 11);
    if (us > worst.us) worst = { name: sample.name, us, bytes: sample.reply.length };
  }
  return { replies: samples.length, parserUs, jsonUs, worst };
}

/**
 * Parse time per reply over the BFCL corpus (`../shared` beside the repository): with the tools'
 * names only, and with their schemas (values typed, shapes checked), against JSON.parse of the
 * same bytes; undefined when the corpus is absent.
 */
export function measureCorpusParse():
  | { replies: number; namesUs: number; schemasUs: number; jsonUs: number }
  | undefined {
  const cases = loadBfclCases();
  if (!cases) return undefined;
  const withNames: Sample[] = cases.map((item) => ({
    name: item.source,
    reply: item.text,
    tools: item.tools.map((tool) => tool.name),
  }));
  const withSchemas: Sample[] = cases.map((item) => ({
    name: item.source,
    reply: item.text,
    tools: item.tools,
  }));
  const encoded = cases.map((item) => JSON.stringify(item.text));
  for (let warm = 0; warm < 30; warm++) {
    for (const sample of [...withNames, ...withSchemas]) parseToolCalls(sample.reply, sample.tools);
    for (const text of encoded) JSON.parse(text);
  }
  const run = (sample: Sample) => parseToolCalls(sample.reply, sample.tools);
  const namesUs = timePerSample(withNames, run, 11);
  const schemasUs = timePerSample(withSchemas, run, 11);
  let index = 0;
  const jsonUs = timePerSample(withNames, () => JSON.parse(encoded[index++ % encoded.length] as string), 11);
  return { replies: cases.length, namesUs, schemasUs, jsonUs };
}
