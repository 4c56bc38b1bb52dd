import { describe, expect, it } from 'vitest';
import { showPart } from './display.js';

describe('showPart', () => {
  it('shows ordinary text as it is', () => {
    expect(showPart('task/file.md')).toBe('task/file.md');
  });

  it('escapes control, bidirectional and zero-width characters', () => {
    expect(showPart('a\u001bb\u202ec\u200bd')).toBe('a\\u{1b}b\\u{202e}c\\u{200b}d');
  });

  it('cuts long text at 80 characters and gives the full length', () => {
    expect(showPart('é'.repeat(100))).toBe(`${'é'.repeat(80)}… (100 characters)`);
  });
});
