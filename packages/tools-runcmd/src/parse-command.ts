import {
  ALLOWED_COMMANDS,
  COMMAND_SPECS,
  type CommandSpec,
  isCommandName,
  type OptionSpec,
} from './command-specs.js';
import { showPart } from './display.js';
import type { Word } from './split-arguments.js';

/** A command line that passed the option allowlist; its operands are not yet resolved. */
export interface ParsedCommand {
  spec: CommandSpec;
  /** Options to pass on, each already in its canonical short form, values separate. */
  flags: string[];
  /** grep's patterns, passed on as `-e <pattern>` each. */
  patterns: string[];
  /** grep `-r`: the tool walks the folders itself. */
  recursive: boolean;
  /** True when `-h`/`-H` was given, so the tool must not add `-H` for a recursive search. */
  filenameChosen: boolean;
  operands: Word[];
}

/** A parsed command or one sentence that says what was refused. */
export type ParseResult = { ok: true; command: ParsedCommand } | { ok: false; error: string };

const COUNT = /^[0-9]{1,9}$/;
const TAIL_COUNT = /^[+]?[0-9]{1,9}$/;

/**
 * Checks a split command line against the allowlists. Options may come before or after
 * operands, as GNU tools allow, until `--`; long options must be spelt in full (GNU would
 * accept `--fil` for `--file`, this does not); short options may be combined (`-rni`, `-n5`).
 * What comes back is rebuilt from scratch, so the program never sees an option as it was typed.
 */
export function parseCommand(words: readonly Word[]): ParseResult {
  const [first, ...rest] = words;
  if (first === undefined) return refuse(`No command given (allowed: ${ALLOWED_COMMANDS.join(', ')})`);
  if (!isCommandName(first.value)) {
    return refuse(`Command not allowed: ${showPart(first.value)} (allowed: ${ALLOWED_COMMANDS.join(', ')})`);
  }
  const spec = COMMAND_SPECS[first.value];
  const command: ParsedCommand = {
    spec,
    flags: [],
    patterns: [],
    recursive: false,
    filenameChosen: false,
    operands: [],
  };
  const nonOptions: Word[] = [];
  let index = 0;
  let optionsEnded = false;
  while (index < rest.length) {
    const word = rest[index]!;
    index++;
    const text = word.value;
    if (optionsEnded || text === '-' || !text.startsWith('-')) {
      nonOptions.push(word);
    } else if (text === '--') {
      optionsEnded = true;
    } else if (spec.numericShorthand === true && /^-[0-9]{1,9}$/.test(text)) {
      command.flags.push('-n', text.slice(1));
    } else if (text.startsWith('--')) {
      const equals = text.indexOf('=');
      const name = equals === -1 ? text : text.slice(0, equals);
      const option = spec.options.find(
        (candidate) => candidate.long !== undefined && `--${candidate.long}` === name,
      );
      if (option === undefined) return refuseOption(spec, name);
      let value: string | undefined;
      if (option.value !== undefined) {
        if (equals !== -1) value = text.slice(equals + 1);
        else if (index < rest.length) value = rest[index++]!.value;
        else return refuse(`Option ${name} of ${spec.name} needs a value`);
      } else if (equals !== -1) {
        return refuse(`Option ${name} of ${spec.name} takes no value: ${showPart(text)}`);
      }
      const problem = apply(command, option, name, value);
      if (problem !== undefined) return refuse(problem);
    } else {
      // A cluster of short options, getopt style: `-rni`, `-n5`, `-e pattern`, `-epattern`.
      for (let position = 1; position < text.length; position++) {
        const letter = text.charAt(position);
        const option = spec.options.find((candidate) => candidate.short === letter);
        if (option === undefined) return refuseOption(spec, `-${letter}`, text);
        let value: string | undefined;
        if (option.value !== undefined) {
          if (position + 1 < text.length) value = text.slice(position + 1);
          else if (index < rest.length) value = rest[index++]!.value;
          else return refuse(`Option -${letter} of ${spec.name} needs a value`);
        }
        const problem = apply(command, option, `-${letter}`, value);
        if (problem !== undefined) return refuse(problem);
        if (value !== undefined) break;
      }
    }
  }
  if (spec.name === 'grep' && command.patterns.length === 0) {
    const pattern = nonOptions.shift();
    if (pattern === undefined) return refuse('grep needs a pattern: grep <pattern> <path under the base>');
    command.patterns.push(pattern.value);
  }
  command.operands = nonOptions;
  return { ok: true, command };
}

function apply(command: ParsedCommand, option: OptionSpec, name: string, value: string | undefined) {
  if (option.recursive === true) {
    command.recursive = true;
    return undefined;
  }
  if (option.pattern === true) {
    command.patterns.push(value ?? '');
    return undefined;
  }
  if (option.value === 'count' && !COUNT.test(value ?? '')) {
    return `Option ${name} of ${command.spec.name} needs a whole number: ${showPart(value ?? '')}`;
  }
  if (option.value === 'tail-count' && !TAIL_COUNT.test(value ?? '')) {
    return `Option ${name} of ${command.spec.name} needs a whole number (or +N): ${showPart(value ?? '')}`;
  }
  if (option.short === 'h' || option.short === 'H') command.filenameChosen = true;
  if (option.emit !== undefined) command.flags.push(option.emit);
  if (value !== undefined) command.flags.push(value);
  return undefined;
}

function refuseOption(spec: CommandSpec, name: string, written?: string): ParseResult {
  const why = spec.refusedWhy[name];
  const where = written !== undefined && written !== name ? ` in ${showPart(written)}` : '';
  return refuse(`Option not allowed for ${spec.name}: ${showPart(name)}${where}${why ? ` (${why})` : ''}`);
}

function refuse(error: string): ParseResult {
  return { ok: false, error };
}
