import { describe, expect, it } from 'vitest';
import { parseCommand } from './parse-command.js';

describe('parseCommand', () => {
  it('reads the text form', () => {
    expect(parseCommand('open https://example.com/a')).toEqual({
      action: 'open',
      url: 'https://example.com/a',
    });
    expect(parseCommand('click e12')).toEqual({ action: 'click', ref: 'e12' });
    expect(parseCommand('click [e12]')).toEqual({ action: 'click', ref: 'e12' });
    expect(parseCommand('type f1e7 "hello world"')).toEqual({
      action: 'type',
      ref: 'f1e7',
      text: 'hello world',
    });
    expect(parseCommand('type e7 two words')).toEqual({ action: 'type', ref: 'e7', text: 'two words' });
    expect(parseCommand('select e4 "Blue"')).toEqual({ action: 'select', ref: 'e4', option: 'Blue' });
    expect(parseCommand('press enter')).toEqual({ action: 'press', key: 'Enter' });
    expect(parseCommand('scroll up')).toEqual({ action: 'scroll', direction: 'up' });
    expect(parseCommand('wait for "Results"')).toEqual({ action: 'wait', text: 'Results' });
    expect(parseCommand('tabs 2')).toEqual({ action: 'tabs', index: 2 });
  });

  it('takes a bare URL as open', () => {
    expect(parseCommand('https://example.com/.')).toEqual({ action: 'open', url: 'https://example.com/' });
  });

  it('reads the structured form', () => {
    expect(parseCommand('', { action: 'type', ref: 'e3', text: 'x' })).toEqual({
      action: 'type',
      ref: 'e3',
      text: 'x',
    });
  });

  it('says what is wrong in one sentence', () => {
    expect(parseCommand('click Sign in')).toBe(
      '"Sign" is not an element reference; use the one in square brackets in the page text, as in e12',
    );
    expect(parseCommand('fly away')).toMatch(/^"fly" is not a BROWSER action; write BROWSER: open <url>/);
  });
});
