/** The five programs RUN_CMD runs. */
export type CommandName = 'cat' | 'head' | 'tail' | 'ls' | 'grep';

/** The programs RUN_CMD runs, in the order its messages list them. */
export const ALLOWED_COMMANDS: readonly CommandName[] = ['cat', 'head', 'tail', 'ls', 'grep'];

/** What an option's value must look like. */
export type ValueKind = 'count' | 'tail-count' | 'pattern';

/** One allowed option: its short and long spellings and what is passed on. */
export interface OptionSpec {
  short?: string;
  long?: string;
  value?: ValueKind;
  /** The short option the program receives; absent for options the tool handles itself. */
  emit?: string;
  /** grep's `-r`: the tool walks the tree itself, so the program never sees this option. */
  recursive?: true;
  /** grep's `-e`: the value is a pattern. */
  pattern?: true;
}

/** What a command accepts. */
export interface CommandSpec {
  name: CommandName;
  options: readonly OptionSpec[];
  /** `head -20` and `tail -20` mean `-n 20`. */
  numericShorthand?: true;
  /** Options refused with a reason, because a model is likely to try them. */
  refusedWhy: Readonly<Record<string, string>>;
}

const flag = (short: string, long?: string): OptionSpec =>
  long === undefined ? { short, emit: `-${short}` } : { short, long, emit: `-${short}` };

const FOLLOW = 'it waits for more output forever';
const SYMLINKS = 'it follows symbolic links out of the base';

/** Per-command option allowlists. Only short options common to GNU and BSD tools are passed on. */
export const COMMAND_SPECS: Readonly<Record<CommandName, CommandSpec>> = {
  cat: {
    name: 'cat',
    options: [flag('n', 'number'), flag('b', 'number-nonblank'), flag('s', 'squeeze-blank'), flag('v')],
    refusedWhy: {},
  },
  head: {
    name: 'head',
    options: [
      { short: 'n', long: 'lines', value: 'count', emit: '-n' },
      { short: 'c', long: 'bytes', value: 'count', emit: '-c' },
    ],
    numericShorthand: true,
    refusedWhy: {},
  },
  tail: {
    name: 'tail',
    options: [
      { short: 'n', long: 'lines', value: 'tail-count', emit: '-n' },
      { short: 'c', long: 'bytes', value: 'tail-count', emit: '-c' },
    ],
    numericShorthand: true,
    refusedWhy: { '-f': FOLLOW, '-F': FOLLOW, '--follow': FOLLOW, '--retry': FOLLOW, '--pid': FOLLOW },
  },
  ls: {
    name: 'ls',
    options: [
      flag('a', 'all'),
      flag('A', 'almost-all'),
      flag('l'),
      flag('h', 'human-readable'),
      flag('t'),
      flag('r', 'reverse'),
      flag('S'),
      flag('1'),
      flag('R', 'recursive'),
      flag('d', 'directory'),
      flag('F', 'classify'),
      flag('i', 'inode'),
    ],
    refusedWhy: { '-L': SYMLINKS, '--dereference': SYMLINKS, '-H': SYMLINKS },
  },
  grep: {
    name: 'grep',
    options: [
      { short: 'e', long: 'regexp', value: 'pattern', pattern: true },
      flag('i', 'ignore-case'),
      flag('v', 'invert-match'),
      flag('w', 'word-regexp'),
      flag('x', 'line-regexp'),
      flag('n', 'line-number'),
      flag('c', 'count'),
      flag('l', 'files-with-matches'),
      flag('L', 'files-without-match'),
      flag('h', 'no-filename'),
      flag('H', 'with-filename'),
      flag('o', 'only-matching'),
      flag('s', 'no-messages'),
      flag('F', 'fixed-strings'),
      flag('E', 'extended-regexp'),
      flag('G', 'basic-regexp'),
      flag('I'),
      flag('a', 'text'),
      { short: 'm', long: 'max-count', value: 'count', emit: '-m' },
      { short: 'A', long: 'after-context', value: 'count', emit: '-A' },
      { short: 'B', long: 'before-context', value: 'count', emit: '-B' },
      { short: 'C', long: 'context', value: 'count', emit: '-C' },
      { short: 'r', long: 'recursive', recursive: true },
    ],
    refusedWhy: {
      '-f': 'it reads patterns from a file; give the pattern with -e',
      '--file': 'it reads patterns from a file; give the pattern with -e',
      '-R': `${SYMLINKS}; use -r`,
      '--dereference-recursive': `${SYMLINKS}; use -r`,
      '-d': 'use -r to search a folder',
      '--directories': 'use -r to search a folder',
      '-D': 'devices and pipes are never read',
      '--devices': 'devices and pipes are never read',
    },
  },
};

/** True when `name` is one of the five commands. */
export function isCommandName(name: string): name is CommandName {
  return Object.hasOwn(COMMAND_SPECS, name);
}
