import { describe, expect, it } from 'vitest';
import { EDGE_SHAPE_NEGATIVES, EDGE_SHAPE_REPLIES } from '../../test/fixtures/edge-shape-replies.js';
import { MARKER_FAMILY_REPLIES } from '../../test/fixtures/marker-family-replies.js';
import { NEGATIVE_REPLIES } from '../../test/fixtures/negative-replies.js';
import { OTHER_FAMILY_REPLIES } from '../../test/fixtures/other-family-replies.js';
import { XML_FAMILY_REPLIES } from '../../test/fixtures/xml-family-replies.js';
import { parseToolCalls, type ToolSpecs } from './parse-tool-call.js';

const POSITIVES = [
  ...XML_FAMILY_REPLIES,
  ...MARKER_FAMILY_REPLIES,
  ...OTHER_FAMILY_REPLIES,
  ...EDGE_SHAPE_REPLIES,
];
const parse = (reply: string, toolNames: ToolSpecs | null | undefined) =>
  parseToolCalls(reply, toolNames ?? undefined);

describe('every model family’s call format', () => {
  it('has at least four positive fixtures for each of 29 families and shapes', () => {
    const perFamily = new Map<string, number>();
    for (const fixture of POSITIVES) perFamily.set(fixture.family, (perFamily.get(fixture.family) ?? 0) + 1);
    expect(perFamily.size).toBeGreaterThanOrEqual(29);
    for (const [family, count] of perFamily) expect(count, family).toBeGreaterThanOrEqual(4);
  });

  it('finds the right calls with the right arguments in at least 95% of the fixtures', () => {
    const failed = POSITIVES.filter(
      (fixture) =>
        JSON.stringify(parse(fixture.reply, fixture.toolNames)) !== JSON.stringify(fixture.expected),
    );
    const rate = 1 - failed.length / POSITIVES.length;
    expect(
      rate,
      failed.map((fixture) => `${fixture.family}: ${fixture.name}`).join('\n'),
    ).toBeGreaterThanOrEqual(0.95);
  });

  for (const fixture of POSITIVES) {
    it(`reads ${fixture.family}: ${fixture.name}`, () => {
      expect(parse(fixture.reply, fixture.toolNames)).toEqual(fixture.expected);
    });
  }
});

describe('replies that hold no call', () => {
  for (const fixture of [...NEGATIVE_REPLIES, ...EDGE_SHAPE_NEGATIVES]) {
    it(`finds nothing in ${fixture.name}`, () => {
      expect(parse(fixture.reply, fixture.toolNames)).toEqual([]);
    });
  }
});
