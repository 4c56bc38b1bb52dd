import { ALLOWED_COMMANDS, COMMAND_SPECS, type OptionSpec } from './command-specs.js';

function spell(option: OptionSpec): string {
  const name = option.short !== undefined ? `-${option.short}` : `--${option.long}`;
  if (option.value === undefined) return name;
  return option.pattern === true ? `${name} PATTERN` : `${name} N`;
}

/**
 * The lines the model sees under RUN_CMD in its tool list: each command with its allowed
 * options, and the rules it will otherwise trip over.
 */
export function describeAllowedOptions(shownBase: string): string {
  const lines = ALLOWED_COMMANDS.map((name) => {
    const options = COMMAND_SPECS[name].options.map(spell).join(' ');
    return `  ${name} ${options}`;
  });
  return [
    `Paths must lie under ${shownBase} (relative paths start there). No pipes, redirection, wildcards or variables.`,
    ...lines,
    `  Examples: RUN_CMD: cat ${shownBase}/schedules.json`,
    '            RUN_CMD: ls',
    `            RUN_CMD: grep -rn error ${shownBase}`,
  ].join('\n');
}
