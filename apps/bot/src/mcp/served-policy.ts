import {
  type CallLabels,
  ContextLabels,
  type ContextLabelsSnapshot,
  labelsOf,
  type Tool,
  UNDECLARED_LABELS,
} from '@macstats/core';

/** The outside source every served call starts from: whoever drives the client may have read anything. */
export const CLIENT_REQUEST_SOURCE = "an MCP client's request";

/** MCP's tool annotations, as the specification names them. */
export interface ServedAnnotations {
  readOnlyHint: boolean;
  destructiveHint: boolean;
  openWorldHint: boolean;
}

/**
 * The annotations a served tool publishes, derived from its containment labels over the forms its
 * usage line documents (`list | add <text> | remove <id>`): read-only only when no form persists,
 * open-world when any form reads outside content or sends. A form the tool's own `parse` cannot
 * read as written counts as the worst case (core's `UNDECLARED_LABELS`), so a hint is never
 * kinder than what the tool may do.
 */
export function annotationsOf(tool: Tool): ServedAnnotations {
  const labels = usageForms(tool.usage).map((argument): CallLabels => {
    const parsed = tool.parse?.({ argument });
    if (parsed && 'problem' in parsed) return UNDECLARED_LABELS;
    return labelsOf(tool, { argument, ...(parsed ? { parsed } : {}) });
  });
  const persists = labels.some((label) => label.persists === true);
  return {
    readOnlyHint: !persists,
    destructiveHint: persists,
    openWorldHint: labels.some((label) => label.outside === true || label.sendsTo !== undefined),
  };
}

/** The argument forms a usage line documents: `TOOL: a | b <x>  ·  TOOL: c` gives `a`, `b <x>`, `c`. */
function usageForms(usage: string): string[] {
  return usage
    .split('·')
    .flatMap((line) => line.slice(line.indexOf(':') + 1).split('|'))
    .map((form) => form.trim())
    .filter((form) => form !== '');
}

/**
 * What the policy says of one served call: run it, ask the client's user (through MCP elicitation,
 * when the client offers it), or refuse it with the sentence the client reads.
 */
export type ServedVerdict =
  | { action: 'run'; labels: CallLabels }
  | { action: 'ask' | 'refuse'; labels: CallLabels; reason: string };

/**
 * The sentence a client reads of a call the policy did not let run: refused outright, denied by the
 * client's user, or with nobody to ask (a client that takes no questions).
 */
export function servedRefusal(reason: string, how: 'refused' | 'denied' | 'nobody'): string {
  const why = {
    refused: 'Data may not go to an address built after reading outside content.',
    denied: "The client's user did not approve it.",
    nobody: 'Nobody could approve it: this MCP client takes no questions (elicitation).',
  }[how];
  return `Not run: ${reason} ${why}`;
}

/**
 * The containment policy of `macstats mcp`: one context for the whole serving process, started
 * with the client's request as outside content (the client's model may be the attacker's, like
 * ours), in which every served call is checked before it runs and whose result is absorbed after.
 */
export function createServedPolicy(): {
  check(tool: Tool, argument: string, args?: Record<string, unknown>): ServedVerdict;
  absorb(tool: Tool, argument: string, labels: CallLabels, resultText: string, sent: readonly string[]): void;
  /** What the serving context holds, for a tool that stores what it is given (a note, a schedule). */
  labels(): ContextLabelsSnapshot;
} {
  const context = new ContextLabels('', { outside: [CLIENT_REQUEST_SOURCE] });
  return {
    check(tool, argument, args) {
      const labels = labelsOf(tool, { argument, ...(args ? { arguments: args } : {}) });
      const verdict = context.check(tool.name, labels);
      return verdict.action === 'run' ? { action: 'run', labels } : { ...verdict, labels };
    },
    absorb(tool, argument, labels, resultText, sent) {
      context.absorb(`${tool.name} ${argument}`.slice(0, 120), labels, resultText, sent);
    },
    labels: () => context.snapshot(),
  };
}
