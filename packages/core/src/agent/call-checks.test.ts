import { describe, expect, it } from 'vitest';
import { CALL_CHECKS } from './call-checks.js';

describe('CALL_CHECKS', () => {
  it('checks the name and text first, then repeats, the arguments, and containment last', () => {
    // Containment may ask the user: it must only ever see a call every other check let through.
    expect(CALL_CHECKS.map((check) => check.name)).toEqual([
      'knownTool',
      'offeredHere',
      'notCopiedFromOutput',
      'notRepeated',
      'fitsParameters',
      'parsesOnce',
      'contained',
    ]);
  });
});
