import type { Tool } from '@macstats/core';
import { offeredTo } from './tool-catalog.js';

/** The tools `macstats mcp` serves, and a sentence for each name asked for that is not available. */
export interface ServedTools {
  tools: Tool[];
  problems: string[];
}

/**
 * The tools `macstats mcp` serves: those of `tools` the catalog offers MCP, every one, or only
 * those `MCP_SERVE_TOOLS` names (`wanted`), with a sentence for each name that is not available.
 */
export function selectServedTools(tools: readonly Tool[], wanted: readonly string[]): ServedTools {
  const servable = offeredTo('mcp', tools);
  if (wanted.length === 0) return { tools: [...servable], problems: [] };
  const problems = wanted
    .filter((name) => !servable.some((tool) => tool.name === name))
    .map(
      (name) =>
        `MCP_SERVE_TOOLS names ${name}, which is not available here (available: ${servable.map((tool) => tool.name).join(', ')}).`,
    );
  return { tools: servable.filter((tool) => wanted.includes(tool.name)), problems };
}
