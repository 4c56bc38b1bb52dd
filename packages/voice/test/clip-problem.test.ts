import { MacstatsError } from '@macstats/core';
import { describe, expect, it } from 'vitest';
import { isClipProblem } from '../src/index.js';

describe('isClipProblem', () => {
  it("tells the recording's own problems from the server's and from other errors", () => {
    expect(isClipProblem(new MacstatsError('VOICE_CORRUPT', 'The file cannot be decoded.'))).toBe(true);
    expect(isClipProblem(new MacstatsError('VOICE_SILENT', 'The recording holds no sound.'))).toBe(true);
    expect(isClipProblem(new MacstatsError('VOICE_TIMEOUT', 'The server did not answer.'))).toBe(false);
    expect(isClipProblem(new MacstatsError('VOICE_UNREACHABLE', 'Nothing answers.'))).toBe(false);
    expect(isClipProblem(new Error('VOICE_CORRUPT'))).toBe(false);
  });
});
