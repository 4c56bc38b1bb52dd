import { showPart } from './display.js';

/** One word of a command line, after quote removal. */
export interface Word {
  /** The word with quotes removed and a leading `~` expanded. */
  value: string;
  /** The word as written, for messages. */
  source: string;
  /** True when the word has a `*`, `?` or `[` outside quotes, which a shell would have globbed. */
  unquotedGlob: boolean;
}

/** Either the words of a line or one sentence saying why it cannot be split. */
export type SplitResult = { ok: true; words: Word[] } | { ok: false; error: string };

const SEPARATOR = /[ \t\n\r]/;
const SHELL_OPERATOR = /[|&;<>`]/;
const GLOB = /[*?[]/;
// A `$` a shell would expand: `$name`, `${…}`, `$(…)`, `$1`, `$?`, `$$`…
const EXPANDING_DOLLAR = /^[A-Za-z_{(0-9?$!#@*-]/;

/**
 * Splits a command line into words the way a POSIX shell would, but without running one:
 * single quotes are literal, double quotes keep everything but `\"`, `\\`, `\$` and `` \` ``,
 * a backslash outside quotes escapes the next character, and an unquoted `~` or `~/` at the
 * start of a word means `homeDir`. There is no globbing, no `~user`, no variables and no
 * command substitution: shell operators (`| & ; < >`, backticks) and expanding `$` outside
 * single quotes are refused rather than passed on as text, since the caller clearly meant
 * something no shell is here to do.
 */
export function splitArguments(line: string, homeDir: string): SplitResult {
  const words: Word[] = [];
  let index = 0;
  while (index < line.length) {
    while (index < line.length && SEPARATOR.test(line.charAt(index))) index++;
    if (index >= line.length) break;
    const start = index;
    let value = '';
    let unquotedGlob = false;
    if (line.charAt(index) === '~') {
      const next = line.charAt(index + 1);
      if (next === '' || next === '/' || SEPARATOR.test(next)) {
        value = homeDir;
        index++;
      }
    }
    while (index < line.length && !SEPARATOR.test(line.charAt(index))) {
      const char = line.charAt(index);
      if (char === "'") {
        const end = line.indexOf("'", index + 1);
        if (end === -1) return fail('Unterminated single quote', line.slice(start));
        value += line.slice(index + 1, end);
        index = end + 1;
      } else if (char === '"') {
        const quoted = readDoubleQuoted(line, index + 1);
        if (!quoted.ok) return fail(quoted.error, line.slice(start));
        value += quoted.value;
        index = quoted.end + 1;
      } else if (char === '\\') {
        if (index + 1 >= line.length) return fail('The line ends with a lone backslash', line.slice(start));
        value += line.charAt(index + 1);
        index += 2;
      } else if (SHELL_OPERATOR.test(char)) {
        const reason = `Shell syntax is not supported (no shell runs the command; quote "${char}" to mean the character)`;
        return fail(reason, wordAt(line, start));
      } else if (char === '$' && EXPANDING_DOLLAR.test(line.charAt(index + 1))) {
        return fail('Variables and command substitution are not supported', wordAt(line, start));
      } else {
        if (GLOB.test(char)) unquotedGlob = true;
        value += char;
        index++;
      }
    }
    words.push({ value, source: line.slice(start, index), unquotedGlob });
  }
  return { ok: true, words };
}

type Quoted = { ok: true; value: string; end: number } | { ok: false; error: string };

function readDoubleQuoted(line: string, from: number): Quoted {
  let value = '';
  let index = from;
  while (index < line.length) {
    const char = line.charAt(index);
    if (char === '"') return { ok: true, value, end: index };
    if (char === '\\') {
      const next = line.charAt(index + 1);
      if (next === '"' || next === '\\' || next === '$' || next === '`') {
        value += next;
        index += 2;
        continue;
      }
    } else if (char === '`' || (char === '$' && EXPANDING_DOLLAR.test(line.charAt(index + 1)))) {
      return { ok: false, error: 'Variables and command substitution are not supported' };
    }
    value += char;
    index++;
  }
  return { ok: false, error: 'Unterminated double quote' };
}

function wordAt(line: string, start: number): string {
  let end = start;
  while (end < line.length && !SEPARATOR.test(line.charAt(end))) end++;
  return line.slice(start, end);
}

function fail(reason: string, part: string): SplitResult {
  return { ok: false, error: `${reason}: ${showPart(part)}` };
}
