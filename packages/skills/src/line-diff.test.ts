import { describe, expect, it } from 'vitest';
import { lineDiff } from './line-diff.js';

describe('lineDiff', () => {
  it('names the lines removed and added, in order, and nothing that stayed', () => {
    expect(lineDiff('one\ntwo\nthree', 'one\n2\nthree\nfour')).toEqual(['- two', '+ 2', '+ four']);
  });

  it('stops after the limit with a line saying how many more changed', () => {
    expect(lineDiff('x', 'x\na\nb\nc\nd', 2)).toEqual(['+ a', '+ b', '… and 2 more changed lines']);
  });
});
