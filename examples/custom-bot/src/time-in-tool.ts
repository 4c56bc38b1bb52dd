import type { Tool } from '@macstats/core';

/**
 * A custom tool: the current time in an IANA time zone. It shows the shape every tool has — a
 * protocol name, one line for the model, the usage line, and `run` — and how a tool reports a
 * refusal (`{ isError: true, text }`) instead of throwing.
 */
export function createTimeInTool(now: () => Date = () => new Date()): Tool {
  return {
    name: 'TIME_IN',
    description: 'The current date and time in a time zone (IANA name such as Europe/Lisbon).',
    usage: 'TIME_IN: <IANA time zone>',
    async run(argument, context) {
      const zone = argument.trim();
      context.onStatus?.(`Looking up the time in ${zone}`);
      try {
        const text = new Intl.DateTimeFormat('en-GB', {
          timeZone: zone,
          dateStyle: 'full',
          timeStyle: 'long',
        }).format(now());
        return `${zone}: ${text}`;
      } catch {
        return {
          isError: true,
          text: `"${zone}" is not a time zone; use an IANA name such as Europe/Lisbon.`,
        };
      }
    },
  };
}
