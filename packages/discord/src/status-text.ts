import type { AgentEvent } from '@macstats/core';
import { DISCORD_BOT_DEFAULTS } from './defaults.js';

function oneLine(text: string): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  const max = DISCORD_BOT_DEFAULTS.maxStatusChars;
  return flat.length > max ? `${flat.slice(0, max - 1)}…` : flat;
}

/**
 * The status line for an agent event, or `undefined` when the event is not shown: tool starts
 * ("Fetching https://…", "Calling MCP tool echo…") and the agent's own `status` lines.
 */
export function statusForEvent(event: AgentEvent): string | undefined {
  if (event.type === 'status' && typeof event.text === 'string' && event.text.trim() !== '')
    return oneLine(event.text);
  if (event.type !== 'tool-call-start' || typeof event.tool !== 'string') return undefined;
  const argument = typeof event.argument === 'string' ? event.argument.trim() : '';
  switch (event.tool) {
    case 'FETCH_URL':
      return oneLine(`Fetching ${argument}…`);
    case 'BRAVE_SEARCH':
      return oneLine(`Searching the web for "${argument}"…`);
    case 'MCP':
      return oneLine(`Calling MCP tool ${argument.split(/\s+/)[0] ?? ''}…`);
    case 'RUN_CMD':
      return oneLine(`Running \`${argument}\`…`);
    default:
      return oneLine(`Using ${event.tool}…`);
  }
}
