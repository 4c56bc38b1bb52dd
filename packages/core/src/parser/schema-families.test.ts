import { describe, expect, it } from 'vitest';
import { PYTHON_NEGATIVES, SCHEMA_FAMILY_REPLIES } from '../../test/fixtures/schema-family-replies.js';
import { parseToolCalls } from './parse-tool-call.js';

describe('Python calls and newer families read with the tools’ schemas', () => {
  for (const fixture of SCHEMA_FAMILY_REPLIES) {
    it(`reads ${fixture.family}: ${fixture.name}`, () => {
      expect(parseToolCalls(fixture.reply, fixture.toolNames ?? undefined)).toEqual(fixture.expected);
    });
  }
});

describe('replies that write Python and hold no call', () => {
  for (const fixture of PYTHON_NEGATIVES) {
    it(`finds nothing in ${fixture.name}`, () => {
      expect(parseToolCalls(fixture.reply, fixture.toolNames ?? undefined)).toEqual([]);
    });
  }
});
