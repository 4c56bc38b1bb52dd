import { describe, expect, it } from 'vitest';
import { memoryCommandFromArguments, parseMemoryCommand } from './memory-command.js';

describe('parseMemoryCommand', () => {
  it('reads add, list, remove and search', () => {
    expect(parseMemoryCommand('add The NAS is at 10.0.0.2')).toEqual({
      action: 'add',
      note: 'The NAS is at 10.0.0.2',
      global: false,
    });
    expect(parseMemoryCommand(' list ')).toEqual({ action: 'list', global: false });
    expect(parseMemoryCommand('remove #2')).toEqual({ action: 'remove', number: 2, global: false });
    expect(parseMemoryCommand('search nas address')).toEqual({ action: 'search', words: 'nas address' });
  });

  it('reads the global prefix', () => {
    expect(parseMemoryCommand('global add Office wifi is "guest"')).toEqual({
      action: 'add',
      note: 'Office wifi is "guest"',
      global: true,
    });
  });

  it('explains a remove without a number', () => {
    expect(parseMemoryCommand('remove the old one')).toMatchObject({
      action: 'invalid',
      reason: expect.stringContaining('MEMORY: remove 2'),
    });
  });

  it('names the usage for an unknown action', () => {
    expect(parseMemoryCommand('erase all')).toEqual({
      action: 'invalid',
      reason: 'Unknown action "erase". Usage: MEMORY: add <fact> | list | remove <n> | search <words>.',
    });
  });
});

describe('memoryCommandFromArguments', () => {
  it('reads the structured form', () => {
    expect(memoryCommandFromArguments({ action: 'add', note: 'x y', global: true })).toEqual({
      action: 'add',
      note: 'x y',
      global: true,
    });
    expect(memoryCommandFromArguments({ action: 'remove', index: 3 })).toEqual({
      action: 'remove',
      number: 3,
      global: false,
    });
    expect(memoryCommandFromArguments({ action: 'search', words: 'nas' })).toEqual({
      action: 'search',
      words: 'nas',
    });
    expect(memoryCommandFromArguments({ action: 'add' })).toMatchObject({ action: 'invalid' });
  });
});
