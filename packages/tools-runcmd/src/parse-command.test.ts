import { describe, expect, it } from 'vitest';
import { type ParseResult, parseCommand } from './parse-command.js';
import { splitArguments } from './split-arguments.js';

function parse(line: string): ParseResult {
  const split = splitArguments(line, '/home/user');
  if (!split.ok) throw new Error(split.error);
  return parseCommand(split.words);
}
function parsed(line: string) {
  const result = parse(line);
  if (!result.ok) throw new Error(result.error);
  const { flags, patterns, recursive, operands } = result.command;
  return { flags, patterns, recursive, operands: operands.map((word) => word.value) };
}
function refusal(line: string) {
  const result = parse(line);
  return result.ok ? undefined : result.error;
}

describe('parseCommand', () => {
  it('refuses a command outside the allowlist, naming it and the allowed ones', () => {
    expect(refusal('rm -rf /')).toBe('Command not allowed: rm (allowed: cat, head, tail, ls, grep)');
  });

  it('refuses an empty line', () => {
    expect(refusal('')).toBe('No command given (allowed: cat, head, tail, ls, grep)');
  });

  it('splits combined short options and takes the rest of the word as a value', () => {
    expect(parsed('grep -rinm5 x')).toEqual({
      flags: ['-i', '-n', '-m', '5'],
      patterns: ['x'],
      recursive: true,
      operands: [],
    });
  });

  it('takes an option value from the next word', () => {
    expect(parsed('head -n 3 a')).toEqual({
      flags: ['-n', '3'],
      patterns: [],
      recursive: false,
      operands: ['a'],
    });
  });

  it('takes long options with = or a separate value', () => {
    expect(parsed('tail --lines=2 --bytes 9 a').flags).toEqual(['-n', '2', '-c', '9']);
  });

  it('accepts options after operands, as GNU tools do', () => {
    expect(parsed('ls task -la')).toEqual({
      flags: ['-l', '-a'],
      patterns: [],
      recursive: false,
      operands: ['task'],
    });
  });

  it('treats everything after -- as operands', () => {
    expect(parsed('cat -- -n --number')).toEqual({
      flags: [],
      patterns: [],
      recursive: false,
      operands: ['-n', '--number'],
    });
  });

  it('takes the first operand of grep as the pattern unless -e was given', () => {
    expect(parsed('grep -n foo a b').patterns).toEqual(['foo']);
    expect(parsed('grep a -e foo -e bar b')).toMatchObject({
      patterns: ['foo', 'bar'],
      operands: ['a', 'b'],
    });
  });

  it('takes a pattern that starts with - from -e and after --', () => {
    expect(parsed('grep -e -v a').patterns).toEqual(['-v']);
    expect(parsed('grep -- -v a').patterns).toEqual(['-v']);
  });

  it('reads head -20 as -n 20', () => {
    expect(parsed('head -20 a').flags).toEqual(['-n', '20']);
  });

  it('keeps - as an operand, to be refused later as standard input', () => {
    expect(parsed('cat -').operands).toEqual(['-']);
  });

  it.each([
    ['grep --fil=x a', 'Option not allowed for grep: --fil'],
    [
      'grep --file=x a',
      'Option not allowed for grep: --file (it reads patterns from a file; give the pattern with -e)',
    ],
    ['grep -Pe x a', 'Option not allowed for grep: -P in -Pe'],
    ['grep --color=always x a', 'Option not allowed for grep: --color'],
    ['ls --hyperlink', 'Option not allowed for ls: --hyperlink'],
    ['tail -fn1 a', 'Option not allowed for tail: -f in -fn1 (it waits for more output forever)'],
    ['head -q a', 'Option not allowed for head: -q'],
    ['cat -A a', 'Option not allowed for cat: -A'],
  ])('refuses an option outside the allowlist: %s', (line, message) => {
    expect(refusal(line)).toBe(message);
  });

  it.each([
    ['head -n', 'Option -n of head needs a value'],
    ['head --lines', 'Option --lines of head needs a value'],
    ['head -n 1k a', 'Option -n of head needs a whole number: 1k'],
    ['head -n +1 a', 'Option -n of head needs a whole number: +1'],
    ['tail -n -1 a', 'Option -n of tail needs a whole number (or +N): -1'],
    ['grep -m 99999999999 x a', 'Option -m of grep needs a whole number: 99999999999'],
    ['ls --all=yes', 'Option --all of ls takes no value: --all=yes'],
  ])('refuses a bad option value: %s', (line, message) => {
    expect(refusal(line)).toBe(message);
  });

  it('asks grep for a pattern when there is none', () => {
    expect(refusal('grep -r')).toBe('grep needs a pattern: grep <pattern> <path under the base>');
  });
});
