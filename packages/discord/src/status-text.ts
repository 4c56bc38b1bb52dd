import type { AgentEvent } from '@macstats/core';
import { oneLine } from '@macstats/core/internal';
import { DISCORD_BOT_DEFAULTS } from './defaults.js';

/** A status line: one line, cut to the status length. */
function statusLine(text: string): string {
  return oneLine(text, DISCORD_BOT_DEFAULTS.maxStatusChars);
}

/** A tool's argument as the status line shows it: one line, long ones cut in the middle. */
function shortArgument(text: string): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  const max = DISCORD_BOT_DEFAULTS.maxStatusArgumentChars;
  if (flat.length <= max) return flat;
  const head = Math.ceil((max - 1) * 0.7);
  return `${flat.slice(0, head)}…${flat.slice(flat.length - (max - 1 - head))}`;
}

/**
 * The status line for an agent event, or `undefined` when the event is not shown: planning,
 * tool starts ("Fetching https://…", "Calling MCP tool echo…", the argument shortened), a call
 * waiting for the asker's approval, and the agent's own `status` lines ("Loading qwen3:8b…").
 */
export function statusForEvent(event: AgentEvent): string | undefined {
  if (event.type === 'status' && typeof event.text === 'string' && event.text.trim() !== '')
    return statusLine(event.text);
  if (event.type === 'planning-start') return 'Planning…';
  if (event.type === 'containment' && event.decision === 'asked')
    return statusLine(`Waiting for your approval to run ${event.tool} (the buttons below)…`);
  if (event.type !== 'tool-call-start' || typeof event.tool !== 'string') return undefined;
  const argument = typeof event.argument === 'string' ? shortArgument(event.argument) : '';
  switch (event.tool) {
    case 'FETCH_URL':
      return statusLine(`Fetching ${argument}…`);
    case 'BRAVE_SEARCH':
      return statusLine(`Searching the web for "${argument}"…`);
    case 'MCP':
      return statusLine(`Calling MCP tool ${argument.split(/\s+/)[0] ?? ''}…`);
    case 'RUN_CMD':
      return statusLine(`Running \`${argument}\`…`);
    default:
      return statusLine(`Using ${event.tool}…`);
  }
}

/**
 * A minor step worth showing only over a status message already up: the model called again
 * after a tool ("Thinking…"). `undefined` for any other event.
 */
export function minorStatusForEvent(event: AgentEvent): string | undefined {
  if (event.type === 'llm-call-start' && typeof event.call === 'number' && event.call > 1) return 'Thinking…';
  return undefined;
}
