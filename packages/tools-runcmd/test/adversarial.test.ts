import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createFixture, createTool, type Fixture, NOTES, runTool, SECRET } from './fixture.js';

// Placeholders filled in from the fixture: {ROOT} the temp root, {BASE} the base,
// {SECRET} the absolute path of the secret file outside the base.
interface Attack {
  name: string;
  argument: string;
  /** What the refusal must say. */
  refusal?: string | RegExp;
  /** For an attack that is a legitimate call as well: text the (successful) output must hold. */
  shows?: string;
}

const NOT_ALLOWED = /^Path not allowed \(must be under ~\/\.mac-stats\)/;
const SHELL = /^Shell syntax is not supported/;
const SUBSTITUTION = /^Variables and command substitution are not supported/;

const attacks: Attack[] = [
  // `..` in every position
  {
    name: '.. at the start of a relative path',
    argument: 'cat ../../outside/secret.txt',
    refusal: NOT_ALLOWED,
  },
  {
    name: '.. in the middle of a path',
    argument: 'cat task/../../../outside/secret.txt',
    refusal: NOT_ALLOWED,
  },
  { name: '.. after ./', argument: 'cat ./../../outside/secret.txt', refusal: NOT_ALLOWED },
  { name: '.. alone', argument: 'cat ..', refusal: NOT_ALLOWED },
  { name: '.. alone for ls', argument: 'ls ..', refusal: NOT_ALLOWED },
  { name: '../.. for ls', argument: 'ls -la ../..', refusal: NOT_ALLOWED },
  { name: '.. at the end of a path', argument: 'ls task/..//..', refusal: NOT_ALLOWED },
  {
    name: '.. through a missing folder',
    argument: 'cat nope/../../../outside/secret.txt',
    refusal: NOT_ALLOWED,
  },
  {
    name: '.. after a symlinked folder (the kernel, not the text, decides)',
    argument: 'cat link-dir/../outside/secret.txt',
    refusal: NOT_ALLOWED,
  },
  {
    name: '.. spelt with backslash escapes',
    argument: 'cat .\\.\\/..\\/outside/secret.txt',
    refusal: NOT_ALLOWED,
  },
  { name: '.. split across quotes', argument: `cat '../'"../outside/secret.txt"`, refusal: NOT_ALLOWED },
  {
    name: 'a very deep run of ..',
    argument: `cat ${'../'.repeat(600)}{ROOT}/outside/secret.txt`,
    refusal: NOT_ALLOWED,
  },
  // absolute paths and ~ forms
  { name: 'an absolute path outside the base', argument: 'cat {SECRET}', refusal: NOT_ALLOWED },
  {
    name: 'an absolute path that climbs out of the base',
    argument: 'cat {BASE}/../../outside/secret.txt',
    refusal: NOT_ALLOWED,
  },
  {
    name: 'a sibling folder whose name starts like the base',
    argument: 'cat {BASE}2/secret.txt',
    refusal: NOT_ALLOWED,
  },
  { name: 'the sibling folder through ~', argument: 'cat ~/.mac-stats2/secret.txt', refusal: NOT_ALLOWED },
  { name: 'a file in the home folder through ~/', argument: 'cat ~/secret.txt', refusal: NOT_ALLOWED },
  { name: '~ alone for ls', argument: 'ls ~', refusal: NOT_ALLOWED },
  { name: '~/.. out of the home', argument: 'cat ~/../outside/secret.txt', refusal: NOT_ALLOWED },
  {
    name: '~/.mac-stats/.. out of the base',
    argument: 'cat ~/.mac-stats/../secret.txt',
    refusal: NOT_ALLOWED,
  },
  {
    name: '~user, which is not expanded',
    argument: 'cat ~root/../../../outside/secret.txt',
    refusal: NOT_ALLOWED,
  },
  { name: 'the file system root', argument: 'ls /', refusal: NOT_ALLOWED },
  { name: 'a /proc path to the process root', argument: 'cat /proc/self/root{SECRET}', refusal: NOT_ALLOWED },
  {
    name: 'an absolute path after other, allowed files',
    argument: 'cat notes.txt {SECRET}',
    refusal: NOT_ALLOWED,
  },
  // symbolic links
  { name: 'a symlink to a file outside', argument: 'cat link-file', refusal: NOT_ALLOWED },
  { name: 'a relative symlink to a file outside', argument: 'head -n 5 link-rel', refusal: NOT_ALLOWED },
  {
    name: 'a file inside a symlinked folder outside',
    argument: 'cat link-dir/secret.txt',
    refusal: NOT_ALLOWED,
  },
  {
    name: 'a symlinked folder outside, with a trailing slash',
    argument: 'ls link-dir/',
    refusal: NOT_ALLOWED,
  },
  {
    name: 'a symlink outside named by its absolute path',
    argument: 'tail {BASE}/link-file',
    refusal: NOT_ALLOWED,
  },
  {
    name: 'a recursive grep of a symlinked folder outside',
    argument: 'grep -r . link-dir',
    refusal: NOT_ALLOWED,
  },
  { name: 'a loop of two symlinks', argument: 'cat loop-a', refusal: /symbolic links\): loop-a$/ },
  { name: 'a symlink to itself', argument: 'ls self-loop', refusal: /symbolic links\): self-loop$/ },
  { name: 'a hard link to a file outside', argument: 'cat hard-link', refusal: /hard links.*: hard-link$/ },
  { name: 'a named pipe that would hang cat', argument: 'cat fifo', refusal: /^Not a regular file.*: fifo$/ },
  { name: 'a device file', argument: 'head -c 10 /dev/zero', refusal: NOT_ALLOWED },
  // the apps' secrets inside the base
  {
    name: 'the .config.env that holds the tokens',
    argument: 'cat .config.env',
    refusal: /^Path not allowed \(\.config\.env may hold secrets/,
  },
  {
    name: '.config.env through ~',
    argument: 'tail -n 1 ~/.mac-stats/.config.env',
    refusal: /\.config\.env may hold secrets/,
  },
  {
    name: '.config.env through ..',
    argument: 'head ./task/../.config.env',
    refusal: /\.config\.env may hold secrets/,
  },
  {
    name: '.config.env in other capitals',
    argument: 'cat .CONFIG.ENV',
    refusal: /\.config\.env may hold secrets|^No such file/i,
  },
  {
    name: 'an innocently named symlink to .config.env',
    argument: 'cat settings-link',
    refusal: /\.config\.env may hold secrets/,
  },
  {
    name: 'grep of .config.env by name',
    argument: 'grep TOKEN .config.env',
    refusal: /\.config\.env may hold secrets/,
  },
  { name: 'a recursive grep for the token', argument: 'grep -r TOKEN', shows: '1 denied name(s)' },
  // options
  {
    name: 'grep -f with a path outside',
    argument: 'grep -f {SECRET} notes.txt',
    refusal: /^Option not allowed for grep: -f/,
  },
  {
    name: 'grep --file= with a path',
    argument: 'grep --file={SECRET} notes.txt',
    refusal: /^Option not allowed for grep: --file/,
  },
  {
    name: 'grep --fil, an abbreviation GNU accepts',
    argument: 'grep --fil={SECRET} notes.txt',
    refusal: /: --fil$/,
  },
  { name: 'grep --fi with a separate value', argument: 'grep --fi {SECRET} notes.txt', refusal: /: --fi$/ },
  {
    name: 'grep -f hidden in combined short options',
    argument: 'grep -inf {SECRET} notes.txt',
    refusal: /: -f in -inf/,
  },
  { name: 'grep -rf, recursion with a pattern file', argument: 'grep -rf{SECRET}', refusal: /: -f in -rf/ },
  {
    name: 'grep -R, which follows symlinks',
    argument: 'grep -R . task',
    refusal: /: -R \(it follows symbolic links/,
  },
  { name: 'grep -d recurse on the parent', argument: 'grep -d recurse . ..', refusal: /: -d/ },
  {
    name: 'grep --include with a recursive search of the parent',
    argument: 'grep --include=*.txt -r . ..',
    refusal: /: --include/,
  },
  { name: 'tail -f, which never ends', argument: 'tail -f notes.txt', refusal: /: -f \(it waits/ },
  { name: 'tail --follow=name', argument: 'tail --follow=name notes.txt', refusal: /: --follow/ },
  { name: 'tail -F hidden after -n', argument: 'tail -n1F notes.txt', refusal: /whole number/ },
  { name: 'ls -L, which follows symlinks', argument: 'ls -lL link-dir', refusal: /: -L in -lL/ },
  {
    name: 'head -n with a path as its value',
    argument: 'head -n {SECRET} notes.txt',
    refusal: /^Option -n of head needs a whole number/,
  },
  {
    name: 'head --lines= with a path as its value',
    argument: 'head --lines=../../outside/secret.txt notes.txt',
    refusal: /whole number/,
  },
  {
    name: 'a negative count GNU head would read as "all but"',
    argument: 'head -n -1 notes.txt',
    refusal: /whole number/,
  },
  { name: 'a flag given a value', argument: 'cat --number=1 notes.txt', refusal: /takes no value/ },
  {
    name: 'an operand that starts with - and names a path',
    argument: 'cat -../../outside/secret.txt',
    refusal: /^Option not allowed for cat: -\./,
  },
  { name: 'a path after --', argument: 'cat -- ../../outside/secret.txt', refusal: NOT_ALLOWED },
  { name: 'an absolute path after --', argument: 'grep -e . -- {SECRET}', refusal: NOT_ALLOWED },
  {
    name: 'an option-looking pattern after --, then a path',
    argument: 'grep -- -r {SECRET}',
    refusal: NOT_ALLOWED,
  },
  {
    name: 'a pattern that is a path, with the base searched',
    argument: 'grep -rh -e {SECRET}',
    shows: '[exit status 1: no lines matched]',
  },
  { name: '- for standard input', argument: 'cat -', refusal: /^Standard input is not available/ },
  {
    name: '- for standard input after --',
    argument: 'grep -- x -',
    refusal: /^Standard input is not available/,
  },
  {
    name: 'grep with no file, which would read standard input',
    argument: 'grep x',
    refusal: /^grep needs a file/,
  },
  // recursion inside the base
  {
    name: 'a recursive grep of the whole base, which holds symlinks and a hard link outside',
    argument: 'grep -r .',
    shows: 'notes.txt:two words here',
  },
  {
    name: 'a recursive grep of a folder holding a symlink outside',
    argument: 'grep -rn . task',
    shows: 'deep/inner.txt:1:deep pattern',
  },
  { name: 'a recursive ls of the base', argument: 'ls -laR', shows: 'inner.txt' },
  { name: 'a recursive grep of ~', argument: 'grep -r . ~', refusal: NOT_ALLOWED },
  // commands
  {
    name: 'a command outside the allowlist',
    argument: 'sh -c "cat {SECRET}"',
    refusal: /^Command not allowed: sh/,
  },
  {
    name: 'an allowed command named by its path',
    argument: '/bin/cat {SECRET}',
    refusal: /^Command not allowed: \/bin\/cat/,
  },
  { name: 'an allowed command in capitals', argument: 'CAT {SECRET}', refusal: /^Command not allowed: CAT/ },
  {
    name: 'env running an allowed command',
    argument: 'env cat {SECRET}',
    refusal: /^Command not allowed: env/,
  },
  { name: 'find', argument: 'find / -name secret.txt', refusal: /^Command not allowed: find/ },
  // shell metacharacters
  { name: 'a ; between commands', argument: 'cat notes.txt; cat {SECRET}', refusal: SHELL },
  { name: 'a pipe', argument: 'cat notes.txt | cat {SECRET}', refusal: SHELL },
  { name: '&&', argument: 'ls && cat {SECRET}', refusal: SHELL },
  { name: 'a background &', argument: 'cat {SECRET} &', refusal: SHELL },
  { name: '$() command substitution', argument: 'cat $(echo {SECRET})', refusal: SUBSTITUTION },
  { name: '$() inside double quotes', argument: 'cat "$(echo {SECRET})"', refusal: SUBSTITUTION },
  { name: 'backticks', argument: 'cat `echo {SECRET}`', refusal: SHELL },
  { name: 'a variable', argument: 'cat $HOME/../outside/secret.txt', refusal: SUBSTITUTION },
  { name: 'an output redirection over a base file', argument: 'cat {SECRET} > notes.txt', refusal: SHELL },
  { name: 'an input redirection', argument: 'cat < {SECRET}', refusal: SHELL },
  {
    name: 'a variable inside single quotes, kept literal',
    argument: "cat '$HOME/../outside/secret.txt'",
    refusal: /^No such file or folder/,
  },
  // bytes and characters
  { name: 'a NUL byte between paths', argument: 'cat notes.txt\u0000{SECRET}', refusal: /NUL byte/ },
  {
    name: 'a NUL byte inside quotes',
    argument: 'cat "notes.txt\u0000../../outside/secret.txt"',
    refusal: /NUL byte/,
  },
  {
    name: 'an escape character in a path',
    argument: "cat 'notes.txt\u001b[2J'",
    refusal: /^Control characters/,
  },
  { name: 'a newline inside quotes', argument: "cat 'notes.txt\n{SECRET}'", refusal: /^Control characters/ },
  { name: 'a newline between words', argument: 'cat notes.txt\ncat {SECRET}', refusal: /: cat$/ },
  {
    name: 'a very long argument line',
    argument: `cat ${'a'.repeat(100_000)}`,
    refusal: /^Command line too long \(100004 characters/,
  },
  {
    name: 'a file name longer than the system allows',
    argument: `cat ${'x'.repeat(300)}`,
    refusal: /^Path too long/,
  },
  {
    name: 'fullwidth slashes that look like ../',
    argument: 'cat ..／..／outside／secret.txt',
    refusal: /^No such file or folder/,
  },
  {
    name: 'a two-dot leader that looks like ..',
    argument: 'cat \u2025/\u2025/outside/secret.txt',
    refusal: /^No such file or folder/,
  },
  {
    name: 'a right-to-left override',
    argument: 'cat \u202e../../outside/secret.txt',
    refusal: /\\u\{202e\}/,
  },
  {
    name: 'a zero-width space inside ..',
    argument: 'cat .\u200b./../outside/secret.txt',
    refusal: /^No such file or folder/,
  },
  {
    name: 'a combining mark on a dot',
    argument: 'cat .\u0307./../../outside/secret.txt',
    refusal: NOT_ALLOWED,
  },
];

describe('RUN_CMD against attacks (real processes, a real base, a secret outside it)', () => {
  let fixture: Fixture;
  let tool: ReturnType<typeof createTool>;

  beforeAll(() => {
    fixture = createFixture();
    tool = createTool(fixture);
  });
  afterAll(() => fixture.cleanup());

  const fill = (text: string) =>
    text
      .replaceAll('{SECRET}', fixture.secretFile)
      .replaceAll('{BASE}', fixture.base)
      .replaceAll('{ROOT}', fixture.root);

  it('holds at least fifty attacks', () => {
    expect(attacks.length).toBeGreaterThanOrEqual(50);
  });

  it('gives every attack an expected refusal or an expected output', () => {
    expect(
      attacks.filter((attack) => (attack.refusal === undefined) === (attack.shows === undefined)),
    ).toEqual([]);
  });

  it.each(attacks)('never shows the secret for $name', async ({ argument, refusal, shows }) => {
    const result = await runTool(tool, fill(argument));
    expect(result.text).not.toContain(SECRET);
    if (refusal !== undefined) {
      expect(result.isError).toBe(true);
      expect(result.text).toMatch(refusal);
    } else {
      expect(result.isError).toBeUndefined();
      expect(result.text).toContain(shows);
    }
    // Nothing was written, whatever the line tried.
    expect(readFileSync(join(fixture.base, 'notes.txt'), 'utf8')).toBe(NOTES);
  });
});
