import { describe, expect, it } from 'vitest';
import { visibleDraft } from './draft-text.js';

describe('visibleDraft', () => {
  it('hides a finished reasoning block', () => {
    expect(visibleDraft('<think>the user wants the load</think>\nThe load is low.')).toBe('The load is low.');
  });

  it('hides a reasoning block still being written', () => {
    expect(visibleDraft('<think>let me see, the CPU')).toBe('');
  });

  it('leaves a draft without reasoning as it is', () => {
    expect(visibleDraft('The load is low.\n')).toBe('The load is low.\n');
  });
});
