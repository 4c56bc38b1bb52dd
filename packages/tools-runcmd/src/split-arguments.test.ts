import { describe, expect, it } from 'vitest';
import { splitArguments } from './split-arguments.js';

const HOME = '/home/user';
const values = (line: string) => {
  const result = splitArguments(line, HOME);
  if (!result.ok) throw new Error(result.error);
  return result.words.map((word) => word.value);
};
const error = (line: string) => {
  const result = splitArguments(line, HOME);
  return result.ok ? undefined : result.error;
};

describe('splitArguments', () => {
  it('splits on spaces, tabs and newlines', () => {
    expect(values(' cat\ta.txt \n b.txt ')).toEqual(['cat', 'a.txt', 'b.txt']);
  });

  it('keeps single-quoted text literal, backslashes and dollars included', () => {
    expect(values(`grep 'a\\|b $HOME' f`)).toEqual(['grep', 'a\\|b $HOME', 'f']);
  });

  it('removes backslashes in double quotes only before " \\ $ and backtick', () => {
    expect(values('grep "say \\"hi\\" \\\\ \\. \\$" f')).toEqual(['grep', 'say "hi" \\ \\. $', 'f']);
  });

  it('joins quoted and unquoted parts of one word', () => {
    expect(values(`cat 'my '"file"'.txt'`)).toEqual(['cat', 'my file.txt']);
  });

  it('keeps an empty quoted word', () => {
    expect(values("grep '' f")).toEqual(['grep', '', 'f']);
  });

  it('escapes the next character with a backslash outside quotes', () => {
    expect(values('cat my\\ file \\|')).toEqual(['cat', 'my file', '|']);
  });

  it('expands ~ and ~/ at the start of a word to the home folder', () => {
    expect(values('ls ~ ~/x')).toEqual(['ls', HOME, `${HOME}/x`]);
  });

  it('does not expand ~user, a quoted ~, or ~ inside a word', () => {
    expect(values(`ls ~root '~/x' "~" a~/b`)).toEqual(['ls', '~root', '~/x', '~', 'a~/b']);
  });

  it('marks a word with an unquoted wildcard but does not expand it', () => {
    const result = splitArguments("ls *.json '*.txt'", HOME);
    expect(result.ok && result.words.map((word) => [word.value, word.unquotedGlob])).toEqual([
      ['ls', false],
      ['*.json', true],
      ['*.txt', false],
    ]);
  });

  it('keeps a lone $ and one before a space or the end', () => {
    expect(values('grep a$ "b$" $')).toEqual(['grep', 'a$', 'b$', '$']);
  });

  it.each([
    ['a pipe', 'cat a | b', '"|"'],
    ['a semicolon', 'cat a;b', '";"'],
    ['an ampersand', 'cat a && b', '"&"'],
    ['a redirection', 'cat a >b', '">"'],
    ['an input redirection', 'cat <a', '"<"'],
    ['a backtick', 'cat `id`', '"`"'],
  ])('refuses %s outside quotes', (_name, line, part) => {
    expect(error(line)).toContain(`quote ${part}`);
  });

  it.each([
    ['$(…)', 'cat $(id)'],
    ['a braced variable', `cat $${'{HOME}'}`],
    ['$name', 'cat $HOME'],
    ['$(…) inside double quotes', 'cat "$(id)"'],
    ['a backtick inside double quotes', 'cat "`id`"'],
  ])('refuses %s', (_name, line) => {
    expect(error(line)).toMatch(/^Variables and command substitution are not supported/);
  });

  it('keeps shell characters that are quoted', () => {
    expect(values(`grep -E 'a|b;c&d' "x>y"`)).toEqual(['grep', '-E', 'a|b;c&d', 'x>y']);
  });

  it('refuses an unterminated quote, naming the word', () => {
    expect(error("cat 'a b")).toBe("Unterminated single quote: 'a b");
    expect(error('cat "a')).toBe('Unterminated double quote: "a');
  });

  it('refuses a trailing lone backslash', () => {
    expect(error('cat a\\')).toBe('The line ends with a lone backslash: a\\');
  });
});
